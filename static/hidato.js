// Hidato: moving between cells with the arrow keys, the running clock, Print.
// Progressive enhancement only: every page works without it (forms post normally),
// and htmx (static/vendor/htmx.min.js) does the requests.
(function () {
  "use strict";

  var root = document.documentElement;
  root.classList.remove("no-js");
  root.classList.add("js");

  // --- the page's language: texts by their English (base.html's #js-messages) -------

  var messages = {};
  try {
    var block = document.getElementById("js-messages");
    if (block) messages = JSON.parse(block.textContent) || {};
  } catch (e) { /* English, then */ }

  // A text in the page's language, its %(name)s (or %(name)d) filled in from values.
  function t(text, values) {
    var found = Object.prototype.hasOwnProperty.call(messages, text) ? messages[text] : text;
    return found.replace(/%\((\w+)\)[sd]/g, function (all, name) {
      return values && name in values ? String(values[name]) : all;
    });
  }

  // --- board layout: --cols for browsers without typed attr() ---------------------

  function sizeBoards(scope) {
    (scope || document).querySelectorAll(".board[data-cols]").forEach(function (board) {
      board.style.setProperty("--cols", board.dataset.cols);
      if (board.dataset.rows) board.style.setProperty("--rows", board.dataset.rows);
      if (board.dataset.padLeft) board.style.setProperty("--pad-l", board.dataset.padLeft);
      if (board.dataset.padRight) board.style.setProperty("--pad-r", board.dataset.padRight);
    });
  }

  // --- moving between cells --------------------------------------------------------
  // The arrow keys; what digits, Enter, Space and the rest do in a cell is play.js's.

  function inputAt(row, col) {
    var input = document.getElementById("c-" + row + "-" + col);
    return input && !input.readOnly ? input : null;
  }

  function focusInput(target) {
    if (!target) return false;
    target.focus();
    return true;
  }

  // The next cell in a straight line, holes skipped: its input, or a given cell itself
  // (play.js makes givens focusable, so the chain can start from them).
  function step(from, drow, dcol) {
    var cell = from.closest(".cell");
    var board = from.closest(".board");
    var row = +cell.dataset.row, col = +cell.dataset.col;
    var rows = +board.dataset.rows, cols = +board.dataset.cols;
    for (;;) {
      row += drow;
      col += dcol;
      if (row < 1 || row > rows || col < 1 || col > cols) return null;
      var next = inputAt(row, col);
      if (next) return next;
      var given = document.getElementById("cell-" + row + "-" + col);
      if (given && given.classList.contains("given") && given.hasAttribute("tabindex")) return given;
    }
  }

  var ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

  document.addEventListener("keydown", function (event) {
    var input = event.target;
    var onGiven = input instanceof HTMLElement && input.matches(".board .cell.given");
    if (!onGiven && (!(input instanceof HTMLInputElement) || !input.closest(".board"))) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (ARROWS[event.key]) {
      var move = ARROWS[event.key];
      if (focusInput(step(input, move[0], move[1]))) event.preventDefault();
    }
  });

  // --- Print -----------------------------------------------------------------------

  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-print]")) {
      event.preventDefault();
      window.print();
    }
  });

  // --- the clock -------------------------------------------------------------------
  // Opening a puzzle writes nothing on the server, so the page counts by itself from the
  // moment it opens; it pauses while the page is hidden and stops when the game is paused
  // or finished. #timer carries the server's seconds when it was drawn, whether the clock
  // runs, which run of the game it belongs to (data-epoch, new after Restart) and a signed
  // stamp. Every post of the game sends the seconds shown and that stamp: the server takes
  // them with the first entry or action (no more than the page can have counted), then
  // keeps the time itself. A timer drawn again (every answer carries one) never shows less
  // than the page did within one run, so the display never jumps back.

  var clock = { el: null, base: 0, since: 0, running: false, epoch: "", stamp: "", restarted: false };

  function format(seconds) {
    var h = Math.floor(seconds / 3600), m = Math.floor(seconds / 60) % 60, s = seconds % 60;
    var mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? h + ":" : "") + mm + ":" + String(s).padStart(2, "0");
  }

  function counted() {  // in seconds, with the fraction
    return clock.base + (clock.since ? (Date.now() - clock.since) / 1000 : 0);
  }

  function shownSeconds() { return Math.floor(counted()); }

  function visible() { return document.visibilityState !== "hidden"; }

  // What this tab counted on a puzzle it has not played yet survives a reload (the server
  // has nothing to show for it), with the stamp that vouches for it.
  function savedKey() { return "hidato-clock:" + location.pathname; }

  function save() {
    if (!clock.el) return;
    try {
      sessionStorage.setItem(savedKey(), JSON.stringify({ epoch: clock.epoch, seconds: counted(), stamp: clock.stamp }));
    } catch (e) { /* private mode: a reload starts from the server's count */ }
  }

  function saved() {
    try { return JSON.parse(sessionStorage.getItem(savedKey()) || "null"); } catch (e) { return null; }
  }

  // Take a newly drawn #timer: the server's count, unless the page's own is ahead in the
  // same run of the game while the clock runs (then the page's, with the stamp behind it).
  // A run begins with the first entry (the epoch goes from "" to a time) and with Restart.
  function adopt(el) {
    var seconds = +el.dataset.seconds || 0, running = el.dataset.running === "true";
    var epoch = el.dataset.epoch || "", stamp = el.dataset.stamp || "";
    var mine = clock.el ? { epoch: clock.epoch, seconds: counted(), stamp: clock.stamp } : saved();
    var same = mine && !clock.restarted && (clock.el ? !mine.epoch || mine.epoch === epoch : mine.epoch === epoch);
    if (running && same && mine.seconds > seconds) {
      seconds = mine.seconds;
      stamp = mine.stamp;
    }
    clock = { el: el, base: seconds, since: running && visible() ? Date.now() : 0,
              running: running, epoch: epoch, stamp: stamp, restarted: false };
  }

  // A visible page ticks every second; a much longer gap means the machine slept (or the
  // tab was frozen), and that is not time spent on the puzzle.
  var lastTick = 0;
  var ASLEEP = 60 * 1000;

  function tick() {
    var timer = document.getElementById("timer");
    if (!timer) return;
    var now = Date.now();
    if (clock.since && lastTick > clock.since && now - lastTick > ASLEEP) {
      clock.base += (lastTick - clock.since) / 1000;
      clock.since = now;
    }
    lastTick = now;
    if (timer !== clock.el) adopt(timer);
    var shown = timer.querySelector(".clock");
    var text = format(shownSeconds());
    if (shown && shown.textContent !== text) shown.textContent = text;
  }

  function clockUrl() {
    var form = document.getElementById("board-form");
    return form ? form.dataset.clock : null;
  }

  // What a post of the game says about the clock: the seconds shown and their stamp.
  function clockFields() {
    tick();
    if (!clock.el || !clock.running || !clock.stamp) return null;
    return { clock: String(shownSeconds()), clock_stamp: clock.stamp };
  }

  function tellServer(event, beacon) {
    var url = clockUrl();
    if (!url) return;
    var body = new FormData();
    body.append("event", event);
    var fields = clockFields();
    if (fields) Object.keys(fields).forEach(function (name) { body.append(name, fields[name]); });
    // The CSRF token from the board form (a beacon cannot carry headers).
    var token = document.querySelector("#board-form input[name=csrf_token]");
    if (token) body.append("csrf_token", token.value);
    if (beacon && navigator.sendBeacon) {
      navigator.sendBeacon(url, body);
    } else {
      fetch(url, { method: "POST", body: body, credentials: "same-origin", keepalive: true }).catch(function () {});
    }
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var detail = event.detail;
    if (detail.verb !== "post" || !detail.elt || !detail.elt.closest || !detail.elt.closest("#game")) return;
    if (detail.parameters.action === "restart-confirm") clock.restarted = true;  // back to zero, whatever was shown
    var fields = clockFields();
    if (!fields) return;
    detail.parameters.clock = fields.clock;
    detail.parameters.clock_stamp = fields.clock_stamp;
    // Pause stops the clock at what it shows now; the answer brings the same or more.
    if (detail.parameters.action === "pause") {
      clock.base = counted();
      clock.since = 0;
      clock.running = false;
    }
  });

  document.addEventListener("visibilitychange", function () {
    tick();
    if (!visible()) {
      clock.base = counted();
      clock.since = 0;
      save();
      tellServer("away", true);
    } else {
      if (clock.running) clock.since = Date.now();
      tellServer("back", false);
    }
  });

  window.addEventListener("pagehide", save);

  // A heartbeat while the page is open, so a long think still counts.
  setInterval(function () {
    if (clock.running && visible()) tellServer("tick", false);
  }, 4 * 60 * 1000);

  setInterval(tick, 1000);
  tick();  // from the moment the page opens
  ["htmx:afterSwap", "htmx:oobAfterSwap"].forEach(function (name) { document.addEventListener(name, tick); });

  // --- a finished game takes no input ----------------------------------------------
  // On a solved or revealed game the keys that would write, note or switch a mode, and
  // the number pad, do nothing (the status line keeps saying "Solved!"); moving between
  // cells still works. Caught on the way down, before any handler of the board sees them.

  function finishedGame(target) {
    var game = target && target.closest ? target.closest("#game") : null;
    return game && game.classList.contains("finished") ? game : null;
  }

  window.addEventListener("keydown", function (event) {
    var target = event.target;
    if (!finishedGame(target) || !target.closest(".board")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key.length === 1 || /^(Enter|Backspace|Delete)$/.test(event.key)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

  window.addEventListener("click", function (event) {
    var target = event.target;
    if (finishedGame(target) && target.closest(".pad")) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

  // The moment a game is finished, its panel (time, Next puzzle, Share) comes into view.
  var wasFinished = !!document.querySelector("#game.finished");
  document.addEventListener("htmx:afterSettle", function () {
    var finished = !!document.querySelector("#game.finished");
    var panel = document.getElementById("solved");
    if (finished && !wasFinished && panel) panel.scrollIntoView({ block: "nearest" });
    wasFinished = finished;
  });

  // --- the New puzzle and booklet forms: only what goes together ----------------------
  // The variant comes first; a shape it does not take is disabled and says why (its
  // data-why, in the page's language: "Heart: Hidato and Hex only"), a variant that takes
  // only some sizes of a shape names them (data-sizes-<variant>, data-note-<variant>),
  // the size follows the shape's range, and the levels the shape and size cannot reach
  // are disabled. The server refuses the others in the same words (core/options.py).

  function optionsOf(select) { return Array.prototype.slice.call(select.options); }

  // The size within the shape's range (its usual one when it is outside); none for
  // "Mixed" on the booklet form, where each shape has its own.
  function fitSize(option, size) {
    if (!option || !size) return;
    if (!option.dataset.min) {
      size.value = "";
      return;
    }
    size.min = option.dataset.min;
    size.max = option.dataset.max;
    var value = +size.value;
    if (!value || value < +option.dataset.min || value > +option.dataset.max) size.value = option.dataset.default;
  }

  function limitShapes(form, changed) {
    var shape = form.querySelector("#shape"), variant = form.querySelector("#variant");
    var size = form.querySelector("#size"), note = form.querySelector("#shape-note");
    if (!shape || !variant) return;
    var key = variant.value;
    // Why the shape was changed under the player stays said until they choose again.
    var said = changed === "size" && form.dataset.switched ? [form.dataset.switched] : [];
    if (changed !== "size") delete form.dataset.switched;
    optionsOf(shape).forEach(function (option) {
      if (!option.dataset.variants) return;  // "Mixed" takes each shape the variant takes
      if (!option.dataset.label) option.dataset.label = option.textContent;
      var blocked = option.dataset.variants.split(" ").indexOf(key) < 0;
      option.disabled = blocked;
      option.textContent = blocked ? option.dataset.why : option.dataset.label;
    });
    var chosen = shape.selectedOptions[0];
    if (chosen && chosen.disabled) {  // the variant was changed under it: the first open shape
      form.dataset.switched = chosen.dataset.why + ".";
      said.push(form.dataset.switched);
      shape.value = optionsOf(shape).filter(function (o) { return !o.disabled; })[0].value;
      chosen = shape.selectedOptions[0];
      changed = "shape";
    }
    if (changed === "shape") fitSize(chosen, size);
    var suffix = key.charAt(0).toUpperCase() + key.slice(1);
    var sizes = chosen && chosen.dataset["sizes" + suffix];
    if (sizes && size) {
      var open = sizes.split(" ");
      if (changed !== "size" && open.indexOf(size.value) < 0) {
        size.value = open.indexOf(chosen.dataset.default) >= 0 ? chosen.dataset.default : open[0];
      }
      said.push(chosen.dataset["note" + suffix] + ".");
    }
    if (note) note.textContent = said.join(" ");
  }

  // --- the forms' Difficulty: only the levels the shape and size can reach ------------
  // The server refuses the others with the same reason (engine/levels.py, SMALLEST).

  function limitLevels(form) {
    var select = form.querySelector("select[data-level-sizes]");
    var shape = form.querySelector("#shape"), size = form.querySelector("#size");
    var variant = form.querySelector("#variant"), note = form.querySelector("#difficulty-note");
    if (!select || !shape || !variant) return;
    var table = JSON.parse(select.dataset.levelSizes);
    var chosen = shape.selectedOptions[0], kind = variant.selectedOptions[0];
    var adjacency = kind ? kind.dataset.adjacency : "king";
    var name = chosen ? chosen.value : "";
    var sizes = (table[adjacency] || {})[name === "square" ? "rectangle" : name];
    var value = (size && +size.value) || (chosen && +chosen.dataset.default) || 0;
    var why = [];
    Array.prototype.forEach.call(select.options, function (option) {
      var smallest = sizes ? sizes[option.value] : undefined;
      var blocked = !!sizes && (smallest === undefined || value < smallest);
      option.disabled = blocked;
      if (blocked) {
        why.push(smallest === undefined ? t("%(level)s: not on this shape", { level: option.textContent })
                                        : t("%(level)s: size %(size)s or more", { level: option.textContent, size: smallest }));
      }
    });
    if (select.selectedOptions[0] && select.selectedOptions[0].disabled) {
      var open = Array.prototype.filter.call(select.options, function (o) { return !o.disabled; });
      if (open.length) select.value = open[open.length - 1].value;
    }
    if (note) note.textContent = why.length ? t("Needs a bigger board: %(why)s.", { why: why.join("; ") }) : "";
  }

  function limitForm(form, changed) {
    limitShapes(form, changed);
    limitLevels(form);
  }

  document.querySelectorAll("form").forEach(function (form) { limitForm(form, ""); });
  ["change", "input"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      var form = event.target.form;
      if (type === "input" && event.target instanceof HTMLSelectElement) return;  // its change follows
      if (form && /^(shape|size|variant)$/.test(event.target.id)) limitForm(form, event.target.id);
    });
  });

  // --- when a request fails ----------------------------------------------------------
  // htmx swaps nothing on 4xx/5xx or a network error; say so rather than fail silently.

  // A message in the status line (play.js uses it too, as Hidato.say).
  function say(text, kind) {
    var status = document.getElementById("status");
    if (!status) return;
    var p = document.createElement("p");
    p.className = "notice" + (kind ? " " + kind : "");
    p.textContent = text;
    status.replaceChildren(p);
  }

  function tellPlayer(text) { say(text, "error"); }

  window.Hidato = { say: say, t: t };

  document.addEventListener("htmx:responseError", function (event) {
    var code = event.detail.xhr ? event.detail.xhr.status : "";
    tellPlayer(t("That didn't work (error %(code)s). Reload the page to see what was saved.", { code: code }));
  });

  document.addEventListener("htmx:sendError", function () {
    tellPlayer(t("The server can't be reached: your last entry was not saved. Check the connection and try again."));
  });

  // --- back to a page: what it shows may be old -------------------------------------
  // Pages with this browser's progress (body[data-back=revalidate]: a puzzle, My
  // puzzles) may be kept in the back/forward cache, or come back from the HTTP cache
  // unasked. Either way entries made since (in another tab, or on a page further on)
  // must show: a puzzle's game is fetched again by htmx, My puzzles reloads.

  function revalidate() {
    if (document.body.dataset.back !== "revalidate") return;
    var game = document.getElementById("game");
    if (game && window.htmx) {
      window.htmx.ajax("GET", location.href, { target: "#game", select: "#game", swap: "outerHTML" });
    } else {
      location.reload();
    }
    root.dataset.revalidated = String((+root.dataset.revalidated || 0) + 1);  // for the tests
  }

  window.addEventListener("pageshow", function (event) {
    if (event.persisted) {
      revalidate();
      return;
    }
    var nav = performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
    if (nav && nav.type === "back_forward" && nav.transferSize === 0) revalidate();  // from the HTTP cache
  });

  // --- after htmx swaps ------------------------------------------------------------

  document.addEventListener("htmx:afterSettle", function (event) {
    sizeBoards(event.target.closest ? event.target.closest("main") || document : document);
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { sizeBoards(); });
  } else {
    sizeBoards();
  }
})();
