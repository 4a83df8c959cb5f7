// The solver page's drawing grid: clicking makes holes, the text follows the grid.
// Progressive enhancement only: without it the grid's cells are typed into (x for a
// hole) and the form posts them; the server reads the grid unless the text was changed.
(function () {
  "use strict";

  function cells(grid) {
    return Array.prototype.slice.call(grid.querySelectorAll("input.ed-cell"));
  }

  function token(value) {
    var t = value.trim();
    if (t === "" || t === "." || t === "0" || t === "_") return "";
    if (t === "x" || t === "X" || t === "-") return "x";
    return t;
  }

  // The same text the server writes for a grid (webapp/editor.py, text_of_grid).
  function gridText(grid) {
    var rows = [];
    var width = 1;
    grid.querySelectorAll(".row").forEach(function (row) {
      var tokens = Array.prototype.map.call(row.querySelectorAll("input.ed-cell"), function (input) {
        var t = token(input.value);
        return t === "" ? "." : t;
      });
      tokens.forEach(function (t) { width = Math.max(width, t.length); });
      rows.push(tokens);
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

  function sync(grid) {
    var text = document.getElementById("puzzle");
    var drawn = document.getElementById("drawn");
    if (!text || !drawn) return;
    text.value = gridText(grid);
    drawn.value = text.value;
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

  function neighbour(grid, input, drow, dcol) {
    var match = /^g-(\d+)-(\d+)$/.exec(input.id);
    if (!match) return null;
    return document.getElementById("g-" + (+match[1] + drow) + "-" + (+match[2] + dcol));
  }

  var ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

  function init() {
    var grid = document.getElementById("draw-grid");
    if (!grid) return;
    cells(grid).forEach(function (input) { input.setAttribute("inputmode", "numeric"); });

    grid.addEventListener("click", function (event) {
      var input = event.target;
      if (!(input instanceof HTMLInputElement) || !holeMode()) return;
      input.value = token(input.value) === "x" ? "" : "x";
      mark(input);
      sync(grid);
    });

    grid.addEventListener("input", function (event) {
      if (event.target instanceof HTMLInputElement) mark(event.target);
      sync(grid);
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
      var next = neighbour(grid, input, move[0], move[1]);
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

    document.querySelectorAll("input[name=mode]").forEach(function (radio) {
      radio.addEventListener("change", function () { setMode(grid); });
    });
    setMode(grid);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
