// The photo reader's form and result page (webapp/web/photo.py). Progressive enhancement
// only: without it the form posts as it is (the server answers a file over the limit
// with a 413 page saying so), and a cell clicked on the photo is a link to its field.
//  - The form: a file over the limit is refused before minutes of uploading it on a
//    phone; the button says the photo is being sent.
//  - The result: a cell clicked on the photo (or named in the list of doubtful cells)
//    selects its field in the editor's grid; the field being edited lights its cell on
//    the photo; a doubtful cell the person changes is no longer marked.
(function () {
  "use strict";

  function setUpForm(form) {
    var max = parseInt(form.getAttribute("data-max-bytes"), 10);
    var input = form.querySelector("input[type=file]");
    var warning = form.querySelector(".photo-too-large");
    var button = form.querySelector("button[type=submit]");
    if (!input || !warning || !button) return;

    function tooLarge() {
      var file = input.files && input.files[0];
      return Boolean(file && max && file.size > max);
    }

    input.addEventListener("change", function () {
      warning.hidden = !tooLarge();
    });
    form.addEventListener("submit", function (event) {
      if (tooLarge()) {
        event.preventDefault();
        warning.hidden = false;
        input.focus();
        return;
      }
      var sending = button.getAttribute("data-sending");
      if (sending) {
        // Disabled after this event, so the browser still sends the form as it is.
        setTimeout(function () { button.disabled = true; button.textContent = sending; }, 0);
      }
    });
  }

  function field(id) {
    var found = id ? document.getElementById(id) : null;
    return found && found.classList.contains("ed-cell") ? found : null;
  }

  function overlayCell(id) {
    return document.querySelector('.photo-overlay [data-field="' + id + '"]');
  }

  function setUpResult(reading) {
    reading.addEventListener("click", function (event) {
      var link = event.target.closest ? event.target.closest("[data-field]") : null;
      var target = link && field(link.getAttribute("data-field"));
      if (!target) return;
      event.preventDefault();
      target.scrollIntoView({ block: "nearest", inline: "nearest" });
      target.focus({ preventScroll: true });
      target.select();
    });
    var grid = document.getElementById("draw-grid");
    if (!grid) return;
    grid.addEventListener("focusin", function (event) {
      var cell = field(event.target.id) && overlayCell(event.target.id);
      if (cell) cell.classList.add("hot");
    });
    grid.addEventListener("focusout", function (event) {
      var cell = field(event.target.id) && overlayCell(event.target.id);
      if (cell) cell.classList.remove("hot");
    });
    grid.addEventListener("input", function (event) {
      var input = event.target;
      if (input.classList && input.classList.contains("doubt")) {
        input.classList.remove("doubt");
        input.removeAttribute("aria-describedby");
      }
    });
  }

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("form.photo-form[data-max-bytes]"), setUpForm);
    var reading = document.querySelector(".photo-reading");
    if (reading) setUpResult(reading);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
