// The solver page's drawing grid and text, kept in step both ways: clicking makes holes
// and the text follows the grid; a pasted text redraws the grid and its Rows/Columns;
// Rows/Columns resize the grid at once. Progressive enhancement only: without it the
// grid's cells are typed into (x for a hole), the form posts them, and the server reads
// the grid unless the text was changed (webapp/web/editor.py does the same there).
(function () {
  "use strict";

  var DRAW_MAX = 30;  // DRAW_MAX in webapp/web/editor.py
  var ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

  function cells(grid) {
    return Array.prototype.slice.call(grid.querySelectorAll("input.ed-cell"));
  }

  // One token as the server reads it (editor.py, _token).
  function token(value) {
    var t = value.trim();
    if (t === "" || t === "." || t === "0" || t === "_") return "";
    if (t === "x" || t === "X" || t === "-") return "x";
    return t.slice(0, 12);
  }

  // The rows of a text as tokens, comments and blank lines left out (editor.py, text_rows).
  function textRows(text) {
    var rows = [];
    text.split(/\r\n|\r|\n/).forEach(function (line) {
      var stripped = line.trim();
      if (!stripped || stripped.charAt(0) === "#") return;
      rows.push(stripped.split(/\s+/).map(token));
    });
    return rows;
  }

  function gridRows(grid) {
    return Array.prototype.map.call(grid.querySelectorAll(".row"), function (row) {
      return Array.prototype.map.call(row.querySelectorAll("input.ed-cell"), function (input) {
        return token(input.value);
      });
    });
  }

  // The same text the server writes for a grid (editor.py, text_of_grid).
  function gridText(grid) {
    var rows = gridRows(grid).map(function (tokens) {
      return tokens.map(function (t) { return t === "" ? "." : t; });
    });
    var width = 1;
    rows.forEach(function (tokens) {
      tokens.forEach(function (t) { width = Math.max(width, t.length); });
    });
    return rows.map(function (tokens) {
      return tokens.map(function (t) { return t.padStart(width, " "); }).join(" ");
    }).join("\n") + "\n";
  }

  function mark(input) {
    var t = token(input.value);
    input.classList.toggle("hole", t === "x");
    input.classList.toggle("given", t !== "" && t !== "x");
  }

  function holeMode() {
    var checked = document.querySelector("input[name=mode]:checked");
    return checked && checked.value === "hole";
  }

  function setMode(grid) {
    var holes = holeMode();
    grid.classList.toggle("hole-mode", holes);
    cells(grid).forEach(function (input) {
      // No keyboard pops up on a phone while cells are being toggled.
      input.readOnly = holes;
    });
  }

  function neighbour(input, drow, dcol) {
    var match = /^g-(\d+)-(\d+)$/.exec(input.id);
    if (!match) return null;
    return document.getElementById("g-" + (+match[1] + drow) + "-" + (+match[2] + dcol));
  }

  // The labels come from the page in the reader's language, with 7001 and 7002 standing
  // for the numbers (templates/solve.html).
  function label(pattern, first, second) {
    return pattern.replace("7001", String(first)).replace("7002", String(second));
  }

  function Editor(grid) {
    this.grid = grid;
    this.text = document.getElementById("puzzle");
    this.drawn = document.getElementById("drawn");
    this.rows = document.getElementById("rows");
    this.cols = document.getElementById("cols");
    this.gridRowsField = document.getElementById("grid-rows");
    this.gridColsField = document.getElementById("grid-cols");
    this.help = document.getElementById("draw-help");
    this.tooBig = document.getElementById("draw-too-big");
    this.adjacency = document.getElementById("adjacency");
  }

  // The text follows the grid, and is what the server will see as drawn.
  Editor.prototype.sync = function () {
    if (!this.text || !this.drawn) return;
    this.text.value = gridText(this.grid);
    this.drawn.value = this.text.value;
  };

  Editor.prototype.showSize = function (rows, cols) {
    this.rows.value = String(rows);
    this.cols.value = String(cols);
    this.gridRowsField.value = String(rows);
    this.gridColsField.value = String(cols);
    this.grid.dataset.rows = String(rows);
    this.grid.dataset.cols = String(cols);
    // For browsers without typed attr() in CSS.
    this.grid.style.setProperty("--cols", String(cols));
    this.grid.style.setProperty("--rows", String(rows));
    this.grid.setAttribute("aria-label", label(this.grid.dataset.label, rows, cols));
  };

  // Draw these rows of tokens (padded with holes to the widest, as the server does).
  Editor.prototype.draw = function (rows) {
    var width = Math.max.apply(null, rows.map(function (r) { return r.length; }));
    var grid = this.grid;
    var hex = this.adjacency && this.adjacency.value === "hex";
    var current = gridRows(grid);
    var same = !grid.hidden && current.length === rows.length &&
      current.every(function (r) { return r.length === width; });
    if (same) {
      rows.forEach(function (tokens, r) {
        for (var c = 0; c < width; c++) {
          var input = document.getElementById("g-" + (r + 1) + "-" + (c + 1));
          var t = c < tokens.length ? tokens[c] : "x";
          if (token(input.value) !== t) {
            input.value = t;
            mark(input);
          }
        }
      });
    } else {
      var pattern = grid.dataset.cellLabel;
      var fragment = document.createDocumentFragment();
      rows.forEach(function (tokens, r) {
        var row = document.createElement("div");
        row.className = "row" + (hex && r % 2 ? " shift" : "");
        for (var c = 0; c < width; c++) {
          var input = document.createElement("input");
          input.id = input.name = "g-" + (r + 1) + "-" + (c + 1);
          input.value = c < tokens.length ? tokens[c] : "x";
          input.className = "ed-cell";
          input.setAttribute("aria-label", label(pattern, r + 1, c + 1));
          input.setAttribute("autocomplete", "off");
          input.setAttribute("inputmode", "numeric");
          input.maxLength = 6;
          input.size = 3;
          mark(input);
          row.appendChild(input);
        }
        fragment.appendChild(row);
      });
      grid.replaceChildren(fragment);
      setMode(grid);
    }
    this.showGrid(true);
    this.showSize(rows.length, width);
  };

  Editor.prototype.showGrid = function (shown) {
    this.grid.hidden = !shown;
    this.help.hidden = !shown;
    this.tooBig.hidden = shown;
    this.gridRowsField.disabled = !shown;
    this.gridColsField.disabled = !shown;
  };

  // A pasted or typed text: the grid and Rows/Columns follow it. The text stays what
  // counts (it is not the text as drawn), so its comments and adjacency line are kept.
  Editor.prototype.fromText = function () {
    var declared = /^\s*#\s*adjacency\s*:\s*(king|rook|hex)\b/im.exec(this.text.value);
    if (declared && this.adjacency && this.adjacency.value !== declared[1].toLowerCase()) {
      this.adjacency.value = declared[1].toLowerCase();  // as the server will read it
      this.setHex();
    }
    var rows = textRows(this.text.value);
    if (!rows.length) return;  // emptied, about to be pasted into: the grid stays
    var width = Math.max.apply(null, rows.map(function (r) { return r.length; }));
    if (rows.length > DRAW_MAX || width > DRAW_MAX) {
      this.grid.replaceChildren();  // nothing stale is posted or found
      this.showGrid(false);
      this.rows.value = String(rows.length);
      this.cols.value = String(width);
      return;
    }
    this.draw(rows);
  };

  // Rows/Columns changed: the grid cut or grown to them (new places empty), the text after it.
  Editor.prototype.resize = function () {
    var rows = +this.rows.value;
    var cols = +this.cols.value;
    if (!(rows >= 1 && rows <= DRAW_MAX && cols >= 1 && cols <= DRAW_MAX) ||
        Math.floor(rows) !== rows || Math.floor(cols) !== cols) return;  // the server says why
    var old = this.grid.hidden ? textRows(this.text.value) : gridRows(this.grid);
    var fresh = [];
    for (var r = 0; r < rows; r++) {
      var tokens = [];
      for (var c = 0; c < cols; c++) tokens.push(r < old.length && c < old[r].length ? old[r][c] : "");
      fresh.push(tokens);
    }
    this.draw(fresh);
    this.sync();
  };

  Editor.prototype.setHex = function () {
    var hex = this.adjacency.value === "hex";
    this.grid.classList.toggle("hex", hex);
    Array.prototype.forEach.call(this.grid.querySelectorAll(".row"), function (row, r) {
      row.classList.toggle("shift", hex && r % 2 === 1);
    });
  };

  Editor.prototype.init = function () {
    var editor = this;
    var grid = this.grid;
    cells(grid).forEach(function (input) { input.setAttribute("inputmode", "numeric"); });
    grid.style.setProperty("--cols", grid.dataset.cols || "5");
    grid.style.setProperty("--rows", grid.dataset.rows || "5");

    grid.addEventListener("click", function (event) {
      var input = event.target;
      if (!(input instanceof HTMLInputElement) || !holeMode()) return;
      input.value = token(input.value) === "x" ? "" : "x";
      mark(input);
      editor.sync();
    });

    grid.addEventListener("input", function (event) {
      if (event.target instanceof HTMLInputElement) mark(event.target);
      editor.sync();
    });

    grid.addEventListener("keydown", function (event) {
      var input = event.target;
      if (!(input instanceof HTMLInputElement) || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.key === " " && holeMode()) {
        event.preventDefault();
        input.click();
        return;
      }
      var move = ARROWS[event.key];
      if (event.key === "Enter") move = [0, event.shiftKey ? -1 : 1];
      if (!move) return;
      var next = neighbour(input, move[0], move[1]);
      if (!next && event.key === "Enter") {
        var all = cells(grid);
        next = all[all.indexOf(input) + (event.shiftKey ? -1 : 1)] || null;
      }
      if (event.key === "Enter") event.preventDefault();  // Enter moves on, it does not post
      if (next) {
        event.preventDefault();
        next.focus();
        next.select();
      }
    });

    // Typing or pasting: redrawn once the typing pauses (a 900-cell grid is rebuilt whole).
    var pending = null;
    this.text.addEventListener("input", function () {
      clearTimeout(pending);
      pending = setTimeout(function () { editor.fromText(); }, 150);
    });

    [this.rows, this.cols].forEach(function (field) {
      field.addEventListener("change", function () { editor.resize(); });
      field.addEventListener("keydown", function (event) {
        if (event.key !== "Enter") return;
        event.preventDefault();  // resized here, without posting the form
        editor.resize();
      });
    });

    if (this.adjacency) this.adjacency.addEventListener("change", function () { editor.setHex(); });

    document.querySelectorAll("input[name=mode]").forEach(function (radio) {
      radio.addEventListener("change", function () { setMode(grid); });
    });
    setMode(grid);
  };

  // A solution wider than its box scrolls: the keyboard can reach it to scroll it too.
  function scrollable(boxes) {
    boxes.forEach(function (box) {
      if (box.scrollWidth > box.clientWidth) box.setAttribute("tabindex", "0");
      else box.removeAttribute("tabindex");
    });
  }

  function init() {
    var boxes = document.querySelectorAll(".result-scroll[data-legible]");
    boxes.forEach(function (box) {
      // For browsers without typed attr() in CSS: the width a solution needs to be legible.
      box.style.setProperty("--legible", box.dataset.legible);
    });
    scrollable(boxes);
    window.addEventListener("resize", function () { scrollable(boxes); });
    var grid = document.getElementById("draw-grid");
    if (grid) new Editor(grid).init();
    // A phone has the result under the long form: bring an answer into view.
    var answer = document.querySelector("#status .notice");
    var result = document.getElementById("result-title");
    if (answer && result && result.getBoundingClientRect().top > window.innerHeight) {
      result.scrollIntoView({ block: "start" });
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
