// The booklet form: says beside "Puzzles per page", as the choices change, when the
// boards would print fewer to a page than asked ("Printed 2 to a page (not 4) so that
// every cell is at least 9 mm wide."). It only looks the answer up in the facts the
// server worked out with the layout code that makes the PDF (data-fits on #per_page,
// webapp/paper/fits.py); the sentences come in the page's language (data-* on the note).
// Without scripts the page as sent says the same for the choices it was sent with.
(function () {
  "use strict";

  var perPage = document.getElementById("per_page");
  var note = document.getElementById("per_page-note");
  if (!perPage || !note || !perPage.form || !perPage.dataset.fits) return;
  var form = perPage.form;
  var facts = JSON.parse(perPage.dataset.fits);

  function fill(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (all, name) { return name in values ? String(values[name]) : all; });
  }

  function field(name) { return form.elements.namedItem(name); }

  // The sentence for the form's choices, or "" when the booklet prints as asked.
  function said() {
    var asked = +perPage.value, paper = field("paper").value, shape = field("shape");
    var variant = field("variant").selectedOptions[0];
    var adjacency = variant ? variant.dataset.adjacency : "king";
    if (shape.value === "mixed") {
      var some = ((facts.mixed[paper] || {})[adjacency] || {})[field("difficulty").value] || "";
      return some.indexOf(String(asked)) >= 0 ? fill(note.dataset.some, { asked: asked }) : "";
    }
    var chosen = shape.selectedOptions[0];
    var sizes = ((facts.sizes[paper] || {})[adjacency] || {})[shape.value];
    if (!chosen || !sizes) return "";
    var size = +field("size").value || +chosen.dataset.default;
    var entry = sizes.split(" ")[size - +chosen.dataset.min];
    if (!entry) return "";  // a size out of range: the form says so when it is sent
    if (entry === "0") return note.dataset.tooBig;
    var got = asked === 4 ? +entry.charAt(0) : asked === 2 ? +entry.charAt(1) : asked;
    return got < asked ? fill(note.dataset.fewer, { count: got, asked: asked }) : "";
  }

  function update() {
    var text = said();
    if (note.textContent !== text) note.textContent = text;  // aria-live: said once, when it changes
  }

  // On the document, as hidato.js listens, and registered after it: it fits the size and
  // the level to the shape first (a listener on the form would run before it).
  ["change", "input"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      if (event.target && event.target.form === form) update();
    });
  });
  update();
})();
