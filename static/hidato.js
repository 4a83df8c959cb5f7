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
  // The server keeps the time; #timer carries the seconds at render time and whether
  // the clock runs. While the page is hidden the server is told, so time away from the
  // puzzle does not count.

  function format(seconds) {
    var h = Math.floor(seconds / 3600), m = Math.floor(seconds / 60) % 60, s = seconds % 60;
    var mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? h + ":" : "") + mm + ":" + String(s).padStart(2, "0");
  }

  function currentSeconds(timer) {
    if (!timer.dataset.since) timer.dataset.since = String(Date.now());
    var base = +timer.dataset.seconds || 0;
    if (timer.dataset.running !== "true") return base;
    return base + Math.floor((Date.now() - +timer.dataset.since) / 1000);
  }

  function tick() {
    var timer = document.getElementById("timer");
    if (!timer) return;
    var clock = timer.querySelector(".clock");
    var text = format(currentSeconds(timer));
    if (clock && clock.textContent !== text) clock.textContent = text;
  }

  function clockUrl() {
    var form = document.getElementById("board-form");
    return form ? form.dataset.clock : null;
  }

  function tellServer(event, beacon) {
    var url = clockUrl();
    if (!url) return;
    var body = new FormData();
    body.append("event", event);
    // The CSRF token from the board form (a beacon cannot carry headers).
    var token = document.querySelector("#board-form input[name=csrf_token]");
    if (token) body.append("csrf_token", token.value);
    if (beacon && navigator.sendBeacon) {
      navigator.sendBeacon(url, body);
    } else {
      fetch(url, { method: "POST", body: body, credentials: "same-origin", keepalive: true }).catch(function () {});
    }
  }

  document.addEventListener("visibilitychange", function () {
    var timer = document.getElementById("timer");
    if (!timer) return;
    if (document.visibilityState === "hidden") {
      timer.dataset.seconds = String(currentSeconds(timer));
      timer.dataset.since = String(Date.now());
      if (timer.dataset.running === "true") timer.dataset.running = "away";
      tellServer("away", true);
    } else {
      timer.dataset.since = String(Date.now());
      if (timer.dataset.running === "away") timer.dataset.running = "true";
      tellServer("back", false);
    }
  });

  // A heartbeat while the page is open, so a long think still counts.
  setInterval(function () {
    var timer = document.getElementById("timer");
    if (timer && timer.dataset.running === "true" && document.visibilityState === "visible") {
      tellServer("tick", false);
    }
  }, 4 * 60 * 1000);

  setInterval(tick, 1000);

  // --- the New puzzle form: the size follows the shape's range -----------------------

  document.addEventListener("change", function (event) {
    var select = event.target;
    if (!(select instanceof HTMLSelectElement) || select.id !== "shape") return;
    var option = select.selectedOptions[0];
    var size = document.getElementById("size");
    if (!option || !size) return;
    if (!option.dataset.min) {  // "Mixed" on the booklet form: each shape's own size
      size.value = "";
      return;
    }
    size.min = option.dataset.min;
    size.max = option.dataset.max;
    var value = +size.value;
    if (!value || value < +option.dataset.min || value > +option.dataset.max) size.value = option.dataset.default;
  });

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

  document.querySelectorAll("form").forEach(limitLevels);
  ["change", "input"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      var form = event.target.form;
      if (form && /^(shape|size|variant)$/.test(event.target.id)) limitLevels(form);
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
