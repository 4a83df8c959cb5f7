// Hidato play aids: selection and the chain (click, tap, drag, Space/Enter), the
// neighbours of a number highlighted, notes mode, the number pad on touch screens, zoom
// and pinch, the solved path, copy link and share; the board as one Tab stop (a roving
// tabindex, arrow keys inside: hidato.js), the focus kept where it was when htmx swaps the
// game, and the confirmation as a modal dialog. Progressive enhancement: the page plays
// without it, and htmx sends every entry as before (a chain step just fills an input and
// fires its "change").
(function () {
  "use strict";

  var state = {
    anchor: null,     // [row, col] of the cell whose number the chain continues
    selected: null,   // [row, col] of the selected cell
    notes: false,     // notes mode
    down: false,      // the chain counts down
    zoom: 1,
    dragging: false,
    stop: null,       // [row, col] of the board's one Tab stop (roving tabindex)
    focusId: null,    // the id of what had the focus when htmx swapped, to find it again
    typed: null,      // {id, value}: typed into the focused cell while its entry was sent
    compose: null,    // {input, text}: a note being composed on the number pad (big boards)
  };
  try { state.notes = localStorage.getItem("hidato-notes") === "1"; } catch (e) { /* private mode */ }

  var coarse = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
  if (navigator.share) document.documentElement.classList.add("can-share");

  // --- the board ---------------------------------------------------------------------

  function game() { return document.getElementById("game"); }
  function board() { return document.querySelector("#game .board"); }
  function cellAt(row, col) { return document.getElementById("cell-" + row + "-" + col); }
  function posOf(cell) { return [+cell.dataset.row, +cell.dataset.col]; }
  function inputOf(cell) { return cell ? cell.querySelector("input") : null; }

  function valueOf(cell) {
    if (!cell) return 0;
    var input = inputOf(cell);
    var text = input ? input.value : (cell.querySelector(".num") || {}).textContent;
    var n = parseInt(text, 10);
    return n > 0 ? n : 0;
  }

  function size() { var g = game(); return g ? +g.dataset.size : 0; }

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
    return neighbours(a[0], a[1]).some(function (cell) { return cell === cellAt(b[0], b[1]); });
  }

  function cellsHolding(value) {
    var found = [];
    if (!value) return found;
    document.querySelectorAll("#game .board .cell[data-row]").forEach(function (cell) {
      if (valueOf(cell) === value) found.push(cell);
    });
    return found;
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

  // A click or tap selects a cell; the chain goes on from it only if it holds a number.
  function select(cell) {
    clearMarks();
    if (!cell) { state.selected = null; return; }
    state.selected = posOf(cell);
    state.anchor = valueOf(cell) ? state.selected : null;
    markAround(cell);
  }

  function restoreSelection() {
    if (!state.selected) return;
    var cell = cellAt(state.selected[0], state.selected[1]);
    if (!cell) return;
    clearMarks();
    markAround(cell);
  }

  // --- one Tab stop for the board (the WAI-ARIA grid pattern's roving tabindex) ---------
  // Without JavaScript every open cell is a Tab stop; with it only one is (the cell last
  // focused, a hint's cell, else the first empty one), and the arrow keys move inside.

  function focusTarget(cell) {
    if (!cell || cell.classList.contains("hole")) return null;
    return inputOf(cell) || (cell.classList.contains("given") ? cell : null);
  }

  function rove() {
    var cells = document.querySelectorAll("#game .board .cell[data-row]");
    if (!cells.length) return;
    var stop = state.stop ? focusTarget(cellAt(state.stop[0], state.stop[1])) : null;
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

  document.addEventListener("htmx:beforeSwap", function (event) {
    // What was typed into a cell while its last entry was on its way (5, Enter, 7, Enter in
    // notes mode) is not lost when the answer redraws the cell: htmx drops the entry
    // queued behind it (its element is gone), so it is sent again from the new cell.
    var target = event.detail.target;
    var input = target && target.matches && target.matches("#game .board .cell[data-row]") ? inputOf(target) : null;
    var active = document.activeElement;
    if (input && input.dataset.sent !== undefined && input.value !== input.dataset.sent) {
      state.typed = { id: input.id, value: input.value,
                      send: input !== active || input.dataset.commit === input.value };
    }
    if (!active || active === document.body) return;
    var dialog = active.closest ? active.closest("#confirm") : null;
    if (dialog) state.focusId = dialog.dataset.opener;
    else if (active.id) state.focusId = active.id;
  });

  function usable(element) {
    return element && !element.disabled && element.getClientRects().length > 0;
  }

  function restoreTyped() {
    var typed = state.typed;
    state.typed = null;
    var input = typed ? document.getElementById(typed.id) : null;
    if (!input || input.readOnly) return;
    input.value = typed.value;
    if (typed.send) input.dispatchEvent(new Event("change", { bubbles: true }));
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

  // --- the chain -----------------------------------------------------------------------

  // Continue the chain from the anchor into ``cell``; whether it did.
  function chainInto(cell, backwards) {
    if (!state.anchor || !cell || valueOf(cell)) return false;
    var input = inputOf(cell);
    if (!input || input.readOnly) return false;
    var from = cellAt(state.anchor[0], state.anchor[1]);
    var k = valueOf(from);
    if (!k || !touches(state.anchor, posOf(cell))) return false;
    var next = (backwards || state.down) ? k - 1 : k + 1;
    if (next < 1 || next > size()) return false;
    input.value = String(next);
    input.dataset.chain = "1";  // a chain step is always a number, never a note (htmx:configRequest)
    state.anchor = posOf(cell);
    state.selected = state.anchor;
    input.dispatchEvent(new Event("change", { bubbles: true }));
    clearMarks();
    markAround(cell);
    return true;
  }

  // Each entry says whether it is a number or a note (notes mode), when htmx sends it.
  document.addEventListener("htmx:configRequest", function (event) {
    var cell = event.detail.elt;
    if (!cell || !cell.matches || !cell.matches("#game .board .cell[data-row]")) return;
    var input = inputOf(cell);
    var chained = input && input.dataset.chain === "1";
    if (input) delete input.dataset.chain;
    if (input) input.dataset.sent = input.value;
    event.detail.parameters.mode = state.notes && !chained ? "notes" : "number";
  });

  // --- events on the board ---------------------------------------------------------------

  function boardCell(target) {
    var cell = target && target.closest ? target.closest("#game .board .cell[data-row]") : null;
    return cell;
  }

  document.addEventListener("click", function (event) {
    var cell = boardCell(event.target);
    if (!cell) return;
    if (chainInto(cell, event.shiftKey)) {
      event.preventDefault();
      var input = inputOf(cell);
      if (input) input.focus({ preventScroll: true });
      return;
    }
    select(cell);
  });

  document.addEventListener("focusin", function (event) {
    var cell = boardCell(event.target);
    if (cell) {
      moveStop(cell);
      if (state.compose && state.compose.input.closest(".cell") !== cell) dropCompose();
      var pos = posOf(cell);
      if (!state.selected || state.selected[0] !== pos[0] || state.selected[1] !== pos[1]) {
        // Moving onto a cell keeps the chain's anchor (it moves only to cells with numbers).
        clearMarks();
        state.selected = pos;
        if (valueOf(cell)) state.anchor = pos;
        markAround(cell);
      }
    }
  });

  document.addEventListener("keydown", function (event) {
    var cell = boardCell(event.target);
    if (!cell || event.altKey || event.ctrlKey || event.metaKey) return;
    if ((event.key === " " || event.key === "Enter") && !valueOf(cell) && chainInto(cell, event.shiftKey)) {
      event.preventDefault();
      event.stopImmediatePropagation();  // not also "move on" (hidato.js)
      return;
    }
    if (event.key === "n" || event.key === "N") {
      event.preventDefault();
      toggleNotes();
      return;
    }
    // In notes mode Enter adds the number typed as a note and stays in the cell, so the
    // next note can follow (5, Enter, 7, Enter; 5 then 7 would be the note 57). Leaving
    // the cell sends it, as the browser's own "change" does for any entry.
    var input = inputOf(cell);
    if (state.notes && event.key === "Enter" && input && event.target === input && input.value.trim()) {
      event.preventDefault();
      event.stopImmediatePropagation();  // not also "move on" (hidato.js)
      input.dataset.commit = input.value;
      input.blur();
      input.focus({ preventScroll: true });
    }
  }, true);

  // Dragging from a number across neighbours draws the chain.
  document.addEventListener("pointerdown", function (event) {
    var cell = boardCell(event.target);
    if (!cell || !valueOf(cell) || event.button > 0) return;
    select(cell);
    state.dragging = true;
  });

  document.addEventListener("pointermove", function (event) {
    if (!state.dragging) return;
    var cell = boardCell(document.elementFromPoint(event.clientX, event.clientY));
    if (!cell || !state.anchor) return;
    var pos = posOf(cell);
    if (pos[0] === state.anchor[0] && pos[1] === state.anchor[1]) return;
    if (!valueOf(cell)) chainInto(cell, event.shiftKey);
  });

  ["pointerup", "pointercancel"].forEach(function (name) {
    document.addEventListener(name, function () { state.dragging = false; });
  });

  // --- notes mode and the chain's direction --------------------------------------------

  function toggleNotes() {
    state.notes = !state.notes;
    try { localStorage.setItem("hidato-notes", state.notes ? "1" : "0"); } catch (e) { /* private mode */ }
    dropCompose();
    applyModes();
    say(state.notes ? t("Notes on. %(help)s", { help: notesHelp() }) : t("Notes off: digits enter numbers."));
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
    var notes = document.querySelector("[data-notes]");
    if (notes) notes.setAttribute("aria-pressed", String(state.notes));
    var help = document.getElementById("notes-help");
    if (help) {
      var text = state.notes ? t("Notes: %(help)s", { help: notesHelp() }) : "";
      if (help.textContent !== text) help.textContent = text;
      help.hidden = !state.notes;
    }
    var down = document.querySelector("[data-chain-down]");
    if (down) down.setAttribute("aria-pressed", String(state.down));
    var g = game();
    if (g) g.classList.toggle("notes-mode", state.notes);
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target : null;
    if (!target) return;
    if (target.closest("[data-notes]")) { event.preventDefault(); toggleNotes(); return; }
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
    return text.replace(/%\((\w+)\)s/g, function (all, name) { return values && name in values ? values[name] : all; });
  }

  function say(text) {
    if (window.Hidato) window.Hidato.say(text);  // hidato.js, loaded first
  }

  // --- the number pad (touch screens) ----------------------------------------------------

  var padTimer = null;

  function padTarget() {
    var cell = state.selected ? cellAt(state.selected[0], state.selected[1]) : null;
    var input = inputOf(cell);
    return input && !input.readOnly ? input : null;
  }

  function send(input) {
    clearTimeout(padTimer);
    padTimer = null;
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  document.addEventListener("pointerdown", function (event) {
    if (event.target.closest && event.target.closest(".pad button")) event.preventDefault();  // keep the cell's focus
  });

  // A note being composed (notes mode on a board past 9): shown in its cell, sent by OK.
  function dropCompose() {
    var compose = state.compose;
    state.compose = null;
    if (!compose) return;
    compose.input.value = compose.input.defaultValue;
    var cell = compose.input.closest(".cell");
    if (cell) cell.classList.remove("composing");
  }

  function sendCompose() {
    var compose = state.compose;
    state.compose = null;
    var cell = compose.input.closest(".cell");
    if (cell) cell.classList.remove("composing");
    send(compose.input);
  }

  function padNote(input, key) {
    if (key === "Enter") {
      if (state.compose && state.compose.input === input) sendCompose();
      else say(t("Tap the digits of a number first, then OK."));
      return;
    }
    if (key === "Delete") {
      if (state.compose) { dropCompose(); say(t("Note cleared.")); return; }
      input.value = "";
      send(input);
      return;
    }
    // Up to 9, one digit is one note: it goes at once.
    if (size() <= 9) {
      if (key === "0") { say(t("Notes on this board are 1 to %(size)s.", { size: size() })); return; }
      input.value = key;
      send(input);
      return;
    }
    if (state.compose && state.compose.input !== input) dropCompose();
    if (!state.compose) state.compose = { input: input, text: "" };
    var text = (state.compose.text + key).replace(/^0+/, "").slice(0, String(size()).length);
    state.compose.text = text;
    input.value = text;
    var cell = input.closest(".cell");
    if (cell) cell.classList.toggle("composing", !!text);
    if (!text) return;
    if (+text * 10 > size()) sendCompose();  // no more digits can follow
    else say(t("Note %(number)s…: tap OK to add it, or another digit.", { number: text }));
  }

  document.addEventListener("click", function (event) {
    var key = event.target.closest ? event.target.closest(".pad [data-key]") : null;
    if (!key) return;
    event.preventDefault();
    var input = padTarget();
    if (!input) { dropCompose(); say(t("Select an empty cell first.")); return; }
    if (state.notes) { padNote(input, key.dataset.key); return; }
    if (key.dataset.key === "Delete") {
      input.value = "";
      send(input);
      return;
    }
    if (key.dataset.key === "Enter") {
      if (padTimer) send(input);
      return;
    }
    input.value = (input.value + key.dataset.key).replace(/^0+/, "").slice(0, String(size()).length);
    clearTimeout(padTimer);
    // Numbers can have several digits: the entry goes once the player pauses (or taps OK).
    if (+input.value * 10 > size()) send(input);
    else padTimer = setTimeout(function () { send(input); }, 900);
  });

  function noSystemKeyboard() {
    if (!coarse) return;
    document.querySelectorAll("#game .board input").forEach(function (input) {
      input.setAttribute("inputmode", "none");
    });
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

  var pinch = { pointers: {}, start: 0, zoom: 1 };

  function spread() {
    var points = Object.keys(pinch.pointers).map(function (id) { return pinch.pointers[id]; });
    if (points.length < 2) return 0;
    return Math.hypot(points[0][0] - points[1][0], points[0][1] - points[1][1]);
  }

  document.addEventListener("pointerdown", function (event) {
    if (event.pointerType !== "touch" || !event.target.closest || !event.target.closest("#board-wrap")) return;
    pinch.pointers[event.pointerId] = [event.clientX, event.clientY];
    if (Object.keys(pinch.pointers).length === 2) {
      pinch.start = spread();
      pinch.zoom = state.zoom;
      state.dragging = false;
    }
  });

  document.addEventListener("pointermove", function (event) {
    if (!pinch.pointers[event.pointerId]) return;
    pinch.pointers[event.pointerId] = [event.clientX, event.clientY];
    if (pinch.start > 0) {
      state.zoom = Math.min(2.5, Math.max(0.4, pinch.zoom * spread() / pinch.start));
      applyZoom();
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
    document.querySelectorAll("#game .board .cell[data-row]").forEach(function (cell) {
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
    b.appendChild(svg);
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
    document.querySelectorAll("#game .board .cell.given").forEach(function (cell) {
      if (!cell.hasAttribute("tabindex")) cell.setAttribute("tabindex", "-1");  // arrow keys and the chain reach givens
    });
    rove();
    restoreSelection();
    drawPath();
    openDialog();
    restoreFocus();
    restoreTyped();  // (both already done at the swap; a no-op unless something is left)
  }

  // The focus goes back as soon as the new content is in (htmx settles 20 ms later): keys
  // pressed in between would otherwise land on <body> and be lost.
  document.addEventListener("htmx:afterSwap", function () {
    restoreFocus();
    restoreTyped();
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
