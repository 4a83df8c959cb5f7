// Hidato play aids: the input model (select, then act), the chain, the neighbours of a
// number highlighted, notes mode, the number pad and its dock, zoom and pinch, the
// solved path, copy link and share; the board as one Tab stop (a roving tabindex, arrow
// keys inside: hidato.js), the focus kept where it was when htmx swaps the game, and the
// confirmation as a modal dialog. Progressive enhancement: the page plays without it.
//
// The input model (README, "Input: what a tap, a drag, a key, a long press and a digit
// do"): a tap, a click or a focus only selects a cell. Digits go into the selected open
// cell, the first one replacing what it holds; the number is "being typed" (shown, sent
// nowhere, counted nowhere) until it is committed: when no further digit could make a
// number still missing from the board, on Enter or OK, on leaving the cell, or after a
// short pause on the pad. Only committed numbers are sent (one at a time, from the cell)
// and only they can count as mistakes. Chain entry (k+1 into an empty neighbour of k) is
// a deliberate gesture: a drag from a number with the mouse, Space or Enter from the
// keyboard, or the Chain mode on touch screens, where one finger otherwise pans.
(function () {
  "use strict";

  // How long the pad waits for another digit before the number goes (see the README).
  var PAD_PAUSE = 600;

  var state = {
    anchor: null,     // [row, col] of the cell whose number the chain continues
    selected: null,   // [row, col] of the selected cell
    notes: false,     // notes mode
    chain: false,     // chain mode: a tap on an empty neighbour of the number writes the next
    down: false,      // the chain counts down
    zoom: 1,
    drag: null,       // the pointer drawing a chain (its pointerId)
    stop: null,       // [row, col] of the board's one Tab stop (roving tabindex)
    focusId: null,    // the id of what had the focus when htmx swapped, to find it again
    typing: null,     // {pos, text, held, notes}: the number being typed, not yet committed
    pause: null,      // the pad's timer
    committed: null,  // [row, col] where a number was just committed with the focus there
    outbox: [],       // [{id, value, mode} or {go, elt, pressed}]: numbers and buttons, not yet sent, in order
    pressed: null,    // {name, value} of the button whose request is going now
    inFlight: [],     // the game's requests on their way (their XMLHttpRequests)
    sending: null,    // the entry being posted now
  };
  try {
    state.notes = localStorage.getItem("hidato-notes") === "1";
    state.chain = localStorage.getItem("hidato-chain") === "1";
  } catch (e) { /* private mode */ }

  var coarse = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
  if (navigator.share) document.documentElement.classList.add("can-share");

  // --- the board ---------------------------------------------------------------------

  function game() { return document.getElementById("game"); }
  function board() { return document.querySelector("#game .board"); }
  function cellAt(row, col) { return document.getElementById("cell-" + row + "-" + col); }
  function cellOf(pos) { return pos ? cellAt(pos[0], pos[1]) : null; }
  function posOf(cell) { return [+cell.dataset.row, +cell.dataset.col]; }
  function samePos(a, b) { return !!a && !!b && a[0] === b[0] && a[1] === b[1]; }
  function inputOf(cell) { return cell ? cell.querySelector("input") : null; }
  function openInput(cell) {
    var input = inputOf(cell);
    return input && !input.readOnly ? input : null;
  }

  function size() { var g = game(); return g ? +g.dataset.size : 0; }

  // The number a cell holds (given, entered, or committed and on its way), 0 if none:
  // never the digits being typed into it.
  function valueOf(cell) {
    if (!cell) return 0;
    var typing = state.typing;
    var input = inputOf(cell);
    var text = input ? (typing && samePos(typing.pos, posOf(cell)) ? typing.held : input.value)
                     : (cell.querySelector(".num") || {}).textContent;
    var n = parseInt(text, 10);
    return n > 0 ? n : 0;
  }

  function neighbours(row, col) {
    var g = game();
    var adjacency = g ? g.dataset.adjacency : "king";
    var steps;
    if (adjacency === "rook") {
      steps = [[-1, 0], [0, -1], [0, 1], [1, 0]];
    } else if (adjacency === "hex") {
      // odd-r layout, counted from 0: rows 1, 3, ... are shifted right (data-row is 1-based)
      steps = (row - 1) % 2 ? [[-1, 0], [-1, 1], [0, -1], [0, 1], [1, 0], [1, 1]]
                            : [[-1, -1], [-1, 0], [0, -1], [0, 1], [1, -1], [1, 0]];
    } else {
      steps = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]];
    }
    var found = [];
    steps.forEach(function (s) {
      var cell = cellAt(row + s[0], col + s[1]);
      if (cell && !cell.classList.contains("hole")) found.push(cell);
    });
    return found;
  }

  function touches(a, b) {
    return neighbours(a[0], a[1]).some(function (cell) { return cell === cellOf(b); });
  }

  function boardCells() { return document.querySelectorAll("#game .board .cell[data-row]"); }

  function cellsHolding(value) {
    var found = [];
    if (!value) return found;
    boardCells().forEach(function (cell) {
      if (valueOf(cell) === value) found.push(cell);
    });
    return found;
  }

  // The numbers shown in the board's other cells, as {number: true}.
  function shownElsewhere(except) {
    var shown = {};
    boardCells().forEach(function (cell) {
      if (cell !== except) shown[valueOf(cell)] = true;
    });
    return shown;
  }

  // Whether another digit after ``text`` could still make a number that is missing
  // from the board (1..N, in no other cell); if not, ``text`` is the number meant.
  function canFollow(text, cell) {
    var n = size(), v = +text, shown = shownElsewhere(cell);
    for (var low = v * 10, span = 10; low <= n; low *= 10, span *= 10) {
      for (var m = low; m < low + span && m <= n; m++) if (!shown[m]) return true;
    }
    return false;
  }

  // "row 2, column 3", for the status line.
  function cellWords(cell) {
    var pos = posOf(cell);
    return t("row %(row)d, column %(col)d", { row: pos[0], col: pos[1] });
  }

  // --- selection and highlights --------------------------------------------------------

  function clearMarks() {
    document.querySelectorAll("#game .cell.selected, #game .cell.near, #game .cell.maybe").forEach(function (cell) {
      cell.classList.remove("selected", "near", "maybe");
    });
  }

  function markAround(cell) {
    cell.classList.add("selected");
    var k = valueOf(cell);
    if (!k) return;
    [k - 1, k + 1].forEach(function (j) {
      if (j < 1 || j > size()) return;
      var holders = cellsHolding(j);
      if (holders.length) {
        holders.forEach(function (c) { c.classList.add("near"); });
      } else {
        // Not on the board yet: the empty neighbours are where it can go.
        var pos = posOf(cell);
        neighbours(pos[0], pos[1]).forEach(function (c) {
          if (!valueOf(c) && inputOf(c)) c.classList.add("maybe");
        });
      }
    });
  }

  // Select a cell: UI state only, never a move. The chain goes on from it if it holds a
  // number. Moving with the keyboard onto an empty cell keeps the chain's anchor (so
  // Space can continue it there); a tap or click keeps it only on an empty neighbour.
  function select(cell, keepAnchor) {
    if (state.typing && !(cell && samePos(state.typing.pos, posOf(cell)))) commit();
    if (cell && !samePos(state.committed, posOf(cell))) state.committed = null;
    clearMarks();
    if (!cell) { state.selected = null; return; }
    state.selected = posOf(cell);
    if (valueOf(cell)) state.anchor = state.selected;
    else if (!keepAnchor && !(state.anchor && touches(state.anchor, state.selected))) state.anchor = null;
    markAround(cell);
    if (!state.drag) ensureVisible(cell);
  }

  function restoreSelection() {
    var cell = cellOf(state.selected);
    if (!cell) return;
    clearMarks();
    markAround(cell);
  }

  // The selected cell in view: inside the board's area and the window, and above the
  // pad's dock on a phone (html's scroll-padding-bottom is the dock's height).
  function ensureVisible(cell) {
    if (cell && cell.scrollIntoView) cell.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  // --- one Tab stop for the board (the WAI-ARIA grid pattern's roving tabindex) ---------
  // Without JavaScript every open cell is a Tab stop; with it only one is (the cell last
  // focused, a hint's cell, else the first empty one), and the arrow keys move inside.

  function focusTarget(cell) {
    if (!cell || cell.classList.contains("hole")) return null;
    return inputOf(cell) || (cell.classList.contains("given") ? cell : null);
  }

  function rove() {
    var cells = boardCells();
    if (!cells.length) return;
    var stop = state.stop ? focusTarget(cellOf(state.stop)) : null;
    if (!stop) {  // the first empty cell, else the first open one, else the first cell
      cells.forEach(function (cell) {
        var input = inputOf(cell);
        if (!stop && input && !input.readOnly && !input.value) stop = input;
      });
      stop = stop || document.querySelector("#game .board .cell input:not([readonly])") || focusTarget(cells[0]);
    }
    cells.forEach(function (cell) {
      var target = focusTarget(cell);
      if (target) target.setAttribute("tabindex", target === stop ? "0" : "-1");
    });
  }

  function moveStop(cell) {
    state.stop = posOf(cell);
    var target = focusTarget(cell);
    if (!target || target.getAttribute("tabindex") === "0") return;
    document.querySelectorAll("#game .board [tabindex='0']").forEach(function (old) {
      old.setAttribute("tabindex", "-1");
    });
    target.setAttribute("tabindex", "0");
  }

  // A hint's cell becomes the board's Tab stop: the open one it names, if any.
  function stopAtHint() {
    var hinted = document.querySelectorAll("#game .board .cell.hinted");
    var open = Array.prototype.filter.call(hinted, function (cell) {
      var input = inputOf(cell);
      return input && !input.readOnly && !input.value;
    });
    var cell = open[0] || hinted[0];
    if (cell) state.stop = posOf(cell);
  }

  // --- the focus across swaps ----------------------------------------------------------
  // htmx swaps the whole game after Check, Hint, Reveal...: it focuses the element with
  // the id that had the focus again (every button has a stable id). When that button is
  // gone or disabled (Undo with nothing left, Reveal after revealing, the dialog's
  // buttons), the focus goes to its nearest useful neighbour instead of <body>.

  var FALLBACK = { "tool-undo": "tool-redo", "tool-redo": "tool-undo", "tool-reveal": "tool-restart" };
  var swapping = false;

  document.addEventListener("htmx:beforeSwap", function () {
    // A focused cell taken out by the swap is not the player leaving it (the swap is
    // synchronous; a response that is not swapped ends it too).
    swapping = true;
    setTimeout(function () { swapping = false; }, 0);
    var active = document.activeElement;
    if (!active || active === document.body) return;
    var dialog = active.closest ? active.closest("#confirm") : null;
    if (dialog) state.focusId = dialog.dataset.opener;
    else if (active.id) state.focusId = active.id;
  });

  function usable(element) {
    return element && !element.disabled && element.getClientRects().length > 0;
  }

  function restoreFocus() {
    var id = state.focusId;
    state.focusId = null;
    var active = document.activeElement;
    if (!id || (active && active !== document.body)) return;
    var candidates = [document.getElementById(id), document.getElementById(FALLBACK[id] || "")];
    candidates = candidates.concat(Array.prototype.slice.call(document.querySelectorAll("#tools button")));
    for (var i = 0; i < candidates.length; i++) {
      if (usable(candidates[i])) {
        candidates[i].focus({ preventScroll: true });
        if (document.activeElement === candidates[i]) return;
      }
    }
  }

  // No text stays selected in a cell (htmx puts back the selection it found, and a
  // finished board's last cell would keep it highlighted).
  function dropTextSelection() {
    var active = document.activeElement;
    if (active && active.matches && active.matches("#game .board input") && active.setSelectionRange) {
      var end = active.value.length;
      try { active.setSelectionRange(end, end); } catch (e) { /* not a text field */ }
    }
  }

  // --- the confirmation (Restart, Reveal) as a modal dialog -----------------------------
  // The server renders it open in the page's flow (without JavaScript it is a plain part
  // of the form); here it becomes modal, with the focus on Cancel. Escape cancels it as
  // the Cancel button does, and the focus goes back to the button that opened it.

  function openDialog() {
    var dialog = document.getElementById("confirm");
    if (!dialog || typeof dialog.showModal !== "function" || dialog.dataset.modal) return;
    dialog.dataset.modal = "1";
    var inside = dialog.contains(document.activeElement) ? document.activeElement : null;
    if (dialog.open) dialog.close();
    dialog.showModal();
    var target = inside || document.getElementById("confirm-cancel");
    if (target) target.focus();
    state.focusId = null;
    dialog.addEventListener("cancel", function (event) {
      event.preventDefault();
      cancelDialog(dialog);
    });
    dialog.addEventListener("close", function () {
      if (dialog.isConnected && !dialog.open) cancelDialog(dialog);  // closed some other way
    });
  }

  function cancelDialog(dialog) {
    if (dialog.dataset.cancelled) return;
    dialog.dataset.cancelled = "1";
    var cancel = document.getElementById("confirm-cancel");
    if (cancel) cancel.focus();
    if (cancel) cancel.click();  // the server says "Cancelled"; the focus returns to the opener
  }

  // --- sending: only committed numbers ---------------------------------------------------
  // Commits wait in one queue, in the order they were made, and go one at a time, only
  // when no request of the game is on its way. htmx could queue them itself, but it keeps
  // the cell a queued entry came from and drops the entry if an answer redraws that cell
  // first (and then stalls the rest of its queue); from here each entry is posted from
  // the cell on the page when its turn comes.

  function send(input, value, mode) {
    state.outbox.push({ id: input.id, value: value, mode: mode });
    if (mode === "number") input.value = value;
    pump();
  }

  function pump() {
    while (state.outbox.length && !state.inFlight.length) {
      var entry = state.outbox.shift();
      if (entry.go) {  // a button of the game, pressed after the numbers before it
        if (!entry.elt.isConnected) continue;
        state.pressed = entry.pressed;
        entry.go(true);
        state.pressed = null;
        continue;
      }
      var input = document.getElementById(entry.id);
      var cell = input && !input.readOnly ? input.closest(".cell[hx-post]") : null;
      if (!cell) continue;
      state.sending = entry;
      // A failed request is said by hidato.js; the promise's rejection says nothing more.
      htmx.ajax("post", cell.getAttribute("hx-post"), { source: cell, target: cell }).catch(function () {});
      state.sending = null;
    }
  }

  // A button of the game (Undo, Hint, ...) pressed while numbers wait to be sent goes after
  // them, in the order the player acted; which button it was is kept with it (htmx would
  // look for it again when the request goes, and the focus may have moved by then).
  document.addEventListener("htmx:confirm", function (event) {
    var elt = event.detail.elt;
    if (!state.outbox.length || !elt || !elt.closest || !elt.closest("#game") || elt.matches(".cell[data-row]")) return;
    event.preventDefault();
    var button = event.detail.triggeringEvent && event.detail.triggeringEvent.submitter;
    state.outbox.push({ go: event.detail.issueRequest, elt: elt,
                        pressed: button && button.name ? { name: button.name, value: button.value } : null });
  });

  // A redrawn cell shows what the server has; a number still waiting to go is shown again.
  function showWaiting() {
    state.outbox.forEach(function (entry) {
      var input = entry.id && document.getElementById(entry.id);
      if (input && entry.mode === "number") input.value = entry.value;
    });
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var cell = event.detail.elt, pressed = state.pressed;
    if (pressed && !(pressed.name in event.detail.parameters)) event.detail.parameters[pressed.name] = pressed.value;
    if (!cell || !cell.matches || !cell.matches("#game .board .cell[data-row]")) return;
    var input = inputOf(cell);
    if (!input) return;
    var entry = state.sending && state.sending.id === input.id ? state.sending : { value: input.value, mode: "number" };
    state.sending = null;
    event.detail.parameters[input.name] = entry.value;
    event.detail.parameters.mode = entry.mode;
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.closest && elt.closest("#game")) state.inFlight.push(event.detail.xhr);
  });
  // htmx frees the game for the next request only after this event: the queue goes on then.
  document.addEventListener("htmx:afterRequest", function (event) {
    var at = state.inFlight.indexOf(event.detail.xhr);
    if (at < 0) return;
    state.inFlight.splice(at, 1);
    setTimeout(pump, 0);
  });

  // --- typing: digits into the selected cell -----------------------------------------------

  function showTyping() {
    var typing = state.typing;
    var cell = typing ? cellOf(typing.pos) : null;
    var input = openInput(cell);
    if (!typing) return;
    if (!input) { state.typing = null; return; }
    input.value = typing.text;
    cell.classList.add("typing");
  }

  function stopTyping(cell) {
    clearTimeout(state.pause);
    state.pause = null;
    state.typing = null;
    if (cell) cell.classList.remove("typing");
  }

  // A digit for ``input``: the first after selecting replaces what the cell holds.
  // ``more``: further digits of the same paste follow, so this one never goes alone.
  function typeDigit(input, digit, fromPad, more) {
    var cell = input.closest(".cell"), pos = posOf(cell);
    if (state.typing && !samePos(state.typing.pos, pos)) commit();
    state.committed = null;
    var typing = state.typing || { pos: pos, text: "", held: input.value, notes: state.notes };
    var text = typing.text + digit;
    if (+text === 0) {
      say(t("No number starts with 0: numbers on this board go from 1 to %(size)s.", { size: size() }), "problem");
      return;
    }
    if (+text > size()) {
      say(t("%(number)s is more than %(size)s: numbers on this board go from 1 to %(size)s.",
            { number: text, size: size() }), "problem");
      return;
    }
    clearTimeout(state.pause);
    state.typing = typing;
    typing.text = text;
    showTyping();
    ensureVisible(cell);
    if (more) return;
    if (!canFollow(text, cell)) {
      commit();
    } else if (typing.notes) {
      if (fromPad) say(t("Note %(number)s…: tap OK to add it, or another digit.", { number: text }));
    } else if (fromPad) {
      state.pause = setTimeout(commit, PAD_PAUSE);
    }
  }

  // The number being typed goes: as a number, or as a note in notes mode.
  function commit() {
    var typing = state.typing;
    var cell = typing ? cellOf(typing.pos) : null;
    stopTyping(cell);
    var input = openInput(cell);
    if (!typing || !input) return;
    if (document.activeElement === input) state.committed = typing.pos;
    if (typing.notes) {
      input.value = typing.held;
      send(input, typing.text, "notes");
    } else if (typing.text !== typing.held) {
      send(input, typing.text, "number");
    } else {
      input.value = typing.held;
    }
  }

  // Escape: the cell goes back to what it held.
  function cancelTyping() {
    var typing = state.typing;
    var cell = typing ? cellOf(typing.pos) : null;
    stopTyping(cell);
    var input = inputOf(cell);
    if (typing && input) input.value = typing.held;
    return !!typing;
  }

  // ⌫, Delete, Backspace: the cell is cleared at once.
  function clearCell(input) {
    var cell = input.closest(".cell");
    if (state.typing && samePos(state.typing.pos, posOf(cell))) cancelTyping();
    else commit();
    if (input.value) send(input, "", "number");
  }

  // --- the chain -----------------------------------------------------------------------

  // Continue the chain from the anchor into ``cell`` (an empty neighbour); whether the
  // gesture was taken (a step written, or refused with a reason).
  function chainInto(cell, backwards) {
    if (!state.anchor || !cell || valueOf(cell)) return false;
    var input = openInput(cell);
    if (!input || !touches(state.anchor, posOf(cell))) return false;
    var k = valueOf(cellOf(state.anchor));
    var next = (backwards || state.down) ? k - 1 : k + 1;
    if (!k || next < 1 || next > size()) return false;
    var there = cellsHolding(next).filter(function (c) { return c !== cell; });
    if (there.length) {  // no second copy: say where it is
      select(cell, false);
      say(t("%(number)s is already at %(cell)s: the chain does not write it twice.",
            { number: next, cell: cellWords(there[0]) }), "problem");
      return true;
    }
    if (state.typing) commit();
    send(input, String(next), "number");
    state.anchor = posOf(cell);
    state.selected = state.anchor;
    if (document.activeElement !== input) input.focus({ preventScroll: true });
    clearMarks();
    markAround(cell);
    if (!state.drag) ensureVisible(cell);
    return true;
  }

  // A drag may also pass over the next number already on the board: the chain goes on from it.
  function chainThrough(cell, backwards) {
    if (!state.anchor || !touches(state.anchor, posOf(cell))) return false;
    var k = valueOf(cellOf(state.anchor));
    if (!k || valueOf(cell) !== ((backwards || state.down) ? k - 1 : k + 1)) return false;
    state.anchor = posOf(cell);
    state.selected = state.anchor;
    clearMarks();
    markAround(cell);
    return true;
  }

  // --- keys on the board -------------------------------------------------------------------

  function boardCell(target) {
    return target && target.closest ? target.closest("#game .board .cell[data-row]") : null;
  }

  // The open cells in reading order, and the one ``delta`` away from ``input``.
  function nextOpen(input, delta) {
    var all = Array.prototype.slice.call(document.querySelectorAll("#game .board input:not([readonly])"));
    var at = all.indexOf(input);
    return at < 0 ? null : all[at + delta] || null;
  }

  function moveOn(input, backwards) {
    var next = nextOpen(input, backwards ? -1 : 1);
    if (next) next.focus();
  }

  document.addEventListener("keydown", function (event) {
    var cell = boardCell(event.target);
    if (!cell || event.altKey || event.ctrlKey || event.metaKey) return;
    var input = openInput(cell);
    var key = event.key;
    var justCommitted = samePos(state.committed, posOf(cell));
    if (key !== "Enter") state.committed = null;
    if (/^[0-9]$/.test(key)) {
      event.preventDefault();
      if (input) typeDigit(input, key, false);
      else if (cell.classList.contains("given")) say(t("That cell's number is given: select an empty cell to type in it."));
      return;
    }
    if (key === "Backspace" || key === "Delete") {
      event.preventDefault();
      if (input) clearCell(input);
      return;
    }
    if (key === "Escape" && cancelTyping()) {
      event.preventDefault();
      return;
    }
    if (key === " ") {
      event.preventDefault();
      chainInto(cell, event.shiftKey);
      return;
    }
    if (key === "Enter") {
      event.preventDefault();
      event.stopImmediatePropagation();
      state.committed = null;
      var notes = state.typing ? state.typing.notes : state.notes;
      if (state.typing) commit();
      else if (!justCommitted && !state.notes && chainInto(cell, event.shiftKey)) return;
      // In notes mode Enter stays in the cell, so the next note can follow (5, Enter, 7,
      // Enter); otherwise it moves on, like Tab.
      if (!notes && input) moveOn(input, event.shiftKey);
      return;
    }
    if (key === "n" || key === "N") {
      event.preventDefault();
      toggleNotes();
      return;
    }
    if (key.length === 1) {  // letters and signs never go in a cell
      event.preventDefault();
      say(t("Only numbers go in the cells: type a number from 1 to %(size)s.", { size: size() }), "problem");
    }
  }, true);

  // Whatever else would change a cell's text (a paste, a phone's keyboard, an input
  // method) goes through the same rules as typed digits.
  document.addEventListener("beforeinput", function (event) {
    var cell = boardCell(event.target);
    var input = openInput(cell);
    if (!input || event.target !== input) return;
    if (event.cancelable) event.preventDefault();
    var data = event.data || (event.dataTransfer ? event.dataTransfer.getData("text") : "") || "";
    if (/^delete/.test(event.inputType || "")) { clearCell(input); return; }
    var digits = data.replace(/\s+/g, "");
    if (digits && !/^[0-9]+$/.test(digits)) {
      say(t("Only numbers go in the cells: type a number from 1 to %(size)s.", { size: size() }), "problem");
      return;
    }
    // "40" pasted (or sent whole by an input method) is the number 40, even where a
    // typed 4 would go at once because 40 to 49 are all on the board.
    for (var i = 0; i < digits.length; i++) typeDigit(input, digits[i], false, i < digits.length - 1);
  });

  // ... and an input method that could not be stopped is undone.
  document.addEventListener("input", function (event) {
    var cell = boardCell(event.target);
    var input = openInput(cell);
    if (!input || event.target !== input) return;
    var typing = state.typing;
    input.value = typing && samePos(typing.pos, posOf(cell)) ? typing.text : input.defaultValue;
  });

  document.addEventListener("focusin", function (event) {
    var cell = boardCell(event.target);
    if (!cell) return;
    moveStop(cell);
    if (!samePos(state.selected, posOf(cell))) select(cell, true);
  });

  // Leaving a cell commits what was typed in it (Tab, the arrow keys, a button).
  document.addEventListener("focusout", function (event) {
    if (swapping || !state.typing) return;
    var cell = boardCell(event.target);
    if (!cell || !samePos(state.typing.pos, posOf(cell))) return;
    if (event.relatedTarget && boardCell(event.relatedTarget) === cell) return;
    commit();
  });

  // --- taps, clicks and drags on the board ---------------------------------------------

  document.addEventListener("click", function (event) {
    var cell = boardCell(event.target);
    if (!cell) return;
    if (state.chain && chainInto(cell, event.shiftKey)) {
      event.preventDefault();
      return;
    }
    select(cell, false);
  });

  // Drawing a chain: with a mouse or pen, a drag from a number; with a finger, only in
  // Chain mode (otherwise one finger pans the board, and a swipe never writes).
  document.addEventListener("pointerdown", function (event) {
    var cell = boardCell(event.target);
    if (!cell || !valueOf(cell) || event.button > 0 || !event.isPrimary) return;
    if (event.pointerType === "touch" && !state.chain) return;
    if (!samePos(state.selected, posOf(cell))) select(cell, false);
    state.anchor = posOf(cell);
    state.drag = event.pointerId;
  });

  document.addEventListener("pointermove", function (event) {
    if (state.drag !== event.pointerId || !state.anchor) return;
    var cell = boardCell(document.elementFromPoint(event.clientX, event.clientY));
    if (!cell || samePos(posOf(cell), state.anchor)) return;
    if (valueOf(cell)) chainThrough(cell, event.shiftKey);
    else if (chainInto(cell, event.shiftKey) && !samePos(state.anchor, posOf(cell))) state.drag = null;
  });

  ["pointerup", "pointercancel"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      if (state.drag === event.pointerId) state.drag = null;
    });
  });

  // A long press selects, as a tap does: no menu over the board.
  document.addEventListener("contextmenu", function (event) {
    if (coarse && boardCell(event.target)) event.preventDefault();
  });

  // --- notes, chain and the chain's direction ------------------------------------------

  function remember(name, on) {
    try { localStorage.setItem(name, on ? "1" : "0"); } catch (e) { /* private mode */ }
  }

  function toggleNotes() {
    if (state.typing) commit();
    state.notes = !state.notes;
    remember("hidato-notes", state.notes);
    applyModes();
    say(state.notes ? t("Notes on. %(help)s", { help: notesHelp() }) : t("Notes off: digits enter numbers."));
  }

  function toggleChain() {
    state.chain = !state.chain;
    remember("hidato-chain", state.chain);
    applyModes();
    say(state.chain ? t("Chain on: tap an empty cell next to the selected number to write the next one, or drag from a number. Two fingers move the board.")
                    : t("Chain off: a tap selects a cell, one finger moves the board."));
  }

  // How a note is written: each number is one note, so 5 then 7 is 57 unless sent apart.
  function notesHelp() {
    if (!coarse) return t("Type a number and press Enter to add or remove it as a note.");
    if (size() <= 9) {
      return t("Tap a digit to add or remove it as a note; or type a number and press Enter to add or remove it as a note.");
    }
    return t("Tap a number's digits, then OK; or type a number and press Enter to add or remove it as a note.");
  }

  function applyModes() {
    var pressed = { "[data-notes]": state.notes, "[data-chain]": state.chain, "[data-chain-down]": state.down };
    Object.keys(pressed).forEach(function (selector) {
      var button = document.querySelector(selector);
      if (button) button.setAttribute("aria-pressed", String(pressed[selector]));
    });
    var help = document.getElementById("notes-help");
    if (help) {
      var text = state.notes ? t("Notes: %(help)s", { help: notesHelp() }) : "";
      if (help.textContent !== text) help.textContent = text;
      help.hidden = !state.notes;
    }
    var g = game();
    if (g) {
      g.classList.toggle("notes-mode", state.notes);
      g.classList.toggle("chain-mode", state.chain);
    }
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target : null;
    if (!target) return;
    if (target.closest("[data-notes]")) { event.preventDefault(); toggleNotes(); return; }
    if (target.closest("[data-chain]")) { event.preventDefault(); toggleChain(); return; }
    if (target.closest("[data-chain-down]")) {
      event.preventDefault();
      state.down = !state.down;
      applyModes();
      say(state.down ? t("The chain counts down.") : t("The chain counts up."));
    }
  });

  // A text in the page's language (hidato.js reads them from base.html), else English.
  function t(text, values) {
    if (window.Hidato && window.Hidato.t) return window.Hidato.t(text, values);
    return text.replace(/%\((\w+)\)[sd]/g, function (all, name) { return values && name in values ? values[name] : all; });
  }

  function say(text, kind) {
    if (window.Hidato) window.Hidato.say(text, kind);  // hidato.js, loaded first
  }

  // --- the number pad (touch screens) ----------------------------------------------------

  function padTarget() {
    return openInput(cellOf(state.selected));
  }

  document.addEventListener("pointerdown", function (event) {
    if (event.target.closest && event.target.closest(".pad button")) event.preventDefault();  // keep the cell's focus
  });

  document.addEventListener("click", function (event) {
    var key = event.target.closest ? event.target.closest(".pad [data-key]") : null;
    if (!key) return;
    event.preventDefault();
    var input = padTarget();
    var g = game();
    if (!input && g && g.classList.contains("paused")) { say(t("Paused. Press Resume to go on.")); return; }
    if (!input) { say(t("Select an empty cell first.")); return; }
    var name = key.dataset.key;
    if (name === "Delete") {
      clearCell(input);
    } else if (name === "Enter") {
      if (state.typing) commit();
      else if (state.notes) say(t("Tap the digits of a number first, then OK."));
    } else {
      typeDigit(input, name, true);
    }
  });

  function noSystemKeyboard() {
    if (!coarse) return;
    document.querySelectorAll("#game .board input").forEach(function (input) {
      input.setAttribute("inputmode", "none");
    });
  }

  // --- the dock (phones): the status line and the pad at the bottom of the screen -------
  // html's scroll-padding-bottom keeps what is scrolled into view above it; the CSS has
  // its usual height from the first paint, and a long message makes it taller.

  function watchDock() {
    var dock = document.getElementById("dock");
    if (!dock || dock.dataset.watched || !window.ResizeObserver) return;
    dock.dataset.watched = "1";
    new ResizeObserver(function () {
      var fixed = getComputedStyle(dock).position === "fixed";
      var root = document.documentElement;
      if (fixed) root.style.setProperty("--dock-h", Math.ceil(dock.getBoundingClientRect().height) + "px");
      else root.style.removeProperty("--dock-h");
      if (fixed && !state.drag) ensureVisible(cellOf(state.selected));
    }).observe(dock);
  }

  // --- zoom and pinch ---------------------------------------------------------------

  function applyZoom() {
    var b = board(), wrap = document.getElementById("board-wrap");
    if (!b) return;
    b.style.setProperty("--zoom", String(state.zoom));
    // The zoom buttons only where there is something to zoom: a board wider than its area.
    var zoom = document.querySelector("#game .zoom");
    if (zoom && wrap) zoom.classList.toggle("idle", state.zoom === 1 && b.scrollWidth <= wrap.clientWidth + 1);
  }

  // Zoom until the board is as wide as its area (the gaps and padding do not scale, so
  // a few rounds of measuring).
  function fitZoom() {
    var b = board(), wrap = document.getElementById("board-wrap");
    if (!b || !wrap) return 1;
    for (var round = 0; round < 4; round++) {
      var width = b.getBoundingClientRect().width, room = wrap.clientWidth - 2;
      if (round > 0 && width <= room) break;
      state.zoom = Math.min(1, Math.max(0.4, state.zoom * room / width));
      applyZoom();
    }
    return state.zoom;
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-zoom]") : null;
    if (!button) return;
    event.preventDefault();
    var step = +button.dataset.zoom;
    state.zoom = step === 0 ? fitZoom() : Math.min(2.5, Math.max(0.4, state.zoom * (step > 0 ? 1.25 : 0.8)));
    applyZoom();
  });

  // Two fingers pinch to zoom; in Chain mode (where the board does not pan by itself)
  // they also move it.
  var pinch = { pointers: {}, start: 0, zoom: 1, mid: null, scroll: null };

  function fingers() {
    return Object.keys(pinch.pointers).map(function (id) { return pinch.pointers[id]; });
  }

  function spread() {
    var points = fingers();
    return points.length < 2 ? 0 : Math.hypot(points[0][0] - points[1][0], points[0][1] - points[1][1]);
  }

  function middle() {
    var points = fingers();
    return [(points[0][0] + points[1][0]) / 2, (points[0][1] + points[1][1]) / 2];
  }

  document.addEventListener("pointerdown", function (event) {
    if (event.pointerType !== "touch" || !event.target.closest || !event.target.closest("#board-wrap")) return;
    pinch.pointers[event.pointerId] = [event.clientX, event.clientY];
    if (Object.keys(pinch.pointers).length === 2) {
      var wrap = document.getElementById("board-wrap");
      pinch.start = spread();
      pinch.zoom = state.zoom;
      pinch.mid = middle();
      pinch.scroll = [wrap.scrollLeft, wrap.scrollTop];
      state.drag = null;
    }
  });

  document.addEventListener("pointermove", function (event) {
    if (!pinch.pointers[event.pointerId]) return;
    pinch.pointers[event.pointerId] = [event.clientX, event.clientY];
    if (pinch.start > 0) {
      state.zoom = Math.min(2.5, Math.max(0.4, pinch.zoom * spread() / pinch.start));
      applyZoom();
      var wrap = document.getElementById("board-wrap");
      if (state.chain && wrap) {
        var mid = middle();
        wrap.scrollLeft = pinch.scroll[0] - (mid[0] - pinch.mid[0]);
        wrap.scrollTop = pinch.scroll[1] - (mid[1] - pinch.mid[1]);
      }
    }
  });

  ["pointerup", "pointercancel"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      delete pinch.pointers[event.pointerId];
      if (Object.keys(pinch.pointers).length < 2) pinch.start = 0;
    });
  });

  // --- the solved path -------------------------------------------------------------------

  var SVG = "http://www.w3.org/2000/svg";

  function drawPath() {
    var g = game(), b = board();
    if (!g || !b || !g.classList.contains("finished") || b.querySelector(".path-line")) return;
    var n = size(), centres = [];
    var box = b.getBoundingClientRect();
    boardCells().forEach(function (cell) {
      var k = valueOf(cell);
      if (k < 1 || k > n) return;
      var r = cell.getBoundingClientRect();
      centres[k] = [(r.left + r.width / 2 - box.left).toFixed(1), (r.top + r.height / 2 - box.top).toFixed(1)];
    });
    var svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", "path-line");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("viewBox", "0 0 " + box.width.toFixed(1) + " " + box.height.toFixed(1));
    var bands = Math.min(24, Math.max(1, n - 1));
    for (var band = 0; band < bands; band++) {
      var from = 1 + Math.floor(band * (n - 1) / bands), to = 1 + Math.floor((band + 1) * (n - 1) / bands);
      var points = [];
      for (var k = from; k <= to; k++) if (centres[k]) points.push(centres[k].join(","));
      if (points.length < 2) continue;
      var line = document.createElementNS(SVG, "polyline");
      line.setAttribute("points", points.join(" "));
      line.setAttribute("stroke", "hsl(" + Math.round(300 * band / bands) + " 80% 48%)");
      svg.appendChild(line);
    }
    b.insertBefore(svg, b.firstChild);  // under the cells (and their digits)
  }

  // --- copy link and share --------------------------------------------------------------

  document.addEventListener("click", function (event) {
    var copy = event.target.closest ? event.target.closest("[data-copy]") : null;
    var share = event.target.closest ? event.target.closest("[data-share]") : null;
    if (copy) {
      event.preventDefault();
      var link = new URL(copy.dataset.copy, location.href).href;
      var done = function () { say(t("Link copied: %(link)s", { link: link })); };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(link).then(done, function () { say(t("Copy this link: %(link)s", { link: link })); });
      } else {
        say(t("Copy this link: %(link)s", { link: link }));
      }
    } else if (share && navigator.share) {
      event.preventDefault();
      navigator.share({ title: document.title, url: new URL(share.dataset.share, location.href).href }).catch(function () {});
    }
  });

  // --- after every swap ------------------------------------------------------------------

  function refresh() {
    applyModes();
    applyZoom();
    noSystemKeyboard();
    boardCells().forEach(function (cell) {
      if (cell.classList.contains("given") && !cell.hasAttribute("tabindex")) cell.setAttribute("tabindex", "-1");  // arrow keys and the chain reach givens
    });
    rove();
    restoreSelection();
    drawPath();
    openDialog();
    restoreFocus();
    dropTextSelection();
    watchDock();
  }

  // The focus goes back as soon as the new content is in (htmx settles later): keys
  // pressed in between would otherwise land on <body> and be lost. What was being typed
  // into a redrawn cell is shown again, and so are numbers still waiting to be sent.
  document.addEventListener("htmx:afterSwap", function () {
    swapping = false;
    var typing = state.typing;
    if (typing) {  // a redrawn cell has lost the typing mark: what it holds now is the server's
      var cell = cellOf(typing.pos), input = openInput(cell);
      if (input && !cell.classList.contains("typing")) typing.held = input.value;
      showTyping();
    }
    restoreFocus();
    dropTextSelection();
    showWaiting();
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.target && event.target.id === "game") stopAtHint();
    refresh();
  });
  window.addEventListener("resize", function () {
    var old = document.querySelector("#game .path-line");
    if (old) old.remove();
    drawPath();
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", refresh);
  else refresh();
})();
