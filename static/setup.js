/* The new-game form (templates/new.html), its one page: the rest of the app does without this file.
   The words come from static/app.js (window.bluke.say). */
(function () {
  "use strict";
  var say = window.bluke && window.bluke.say;
  var all = function (sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); };
  if (!say) return;

  /* The set-up form: Enter moves on (after the last name, to the start button: no empty row is
     added), ↑ moves a player up a seat, the one first-dealer list follows the names, options grey
     out where the engine refuses them. */
  function setupForm(form) {
    var list = form.querySelector(".names-list"), limits = JSON.parse(form.dataset.limits || "{}");
    var start = form.querySelector(".start"), add = form.querySelector(".add-row");
    var dealer = form.querySelector("#first-dealer"), sheet = form.querySelector("#blank-sheet");
    function rows() { return all(".name-row", list); }
    function text(row) { return row.querySelector("input[type=text]"); }

    /* The first-dealer list and the blank sheet's link name the players as they are typed. */
    function names() {
      var chosen = dealer.value;
      all("option", dealer).slice(1).forEach(function (option) { option.remove(); });
      rows().forEach(function (row, i) {
        var option = document.createElement("option");
        option.value = String(i);
        option.textContent = text(row).value.trim() || say("player", { n: i + 1 });
        dealer.appendChild(option);
      });
      dealer.value = chosen;
      if (dealer.selectedIndex < 0) dealer.value = "draw";
      if (sheet) {
        var typed = rows().map(function (row) { return text(row).value.trim(); }).filter(Boolean);
        var query = typed.length >= 2 ? typed.map(function (n) { return "players=" + encodeURIComponent(n); }).join("&")
          : "players=" + Math.max(rows().length, 2);
        sheet.setAttribute("href", sheet.getAttribute("href").split("?")[0] + "?" + query);
      }
    }
    function renumber() {
      rows().forEach(function (row, i) {
        var input = text(row), move = row.querySelector(".move");
        input.name = input.id = "names-" + i;
        input.placeholder = say("player", { n: i + 1 });
        input.setAttribute("aria-label", say("player", { n: i + 1 }));
        row.querySelector(".seatno").textContent = String(i + 1);
        if (move) { move.value = "up-" + i; move.setAttribute("aria-label", say("move_up", { n: i + 1 })); }
      });
      if (add) add.disabled = rows().length >= 15;
      names();
      options();
    }
    function addRow() {
      var all_ = rows(); if (all_.length >= 15) return null;
      var copy = all_[all_.length - 1].cloneNode(true);
      text(copy).value = "";
      list.appendChild(copy); renumber();
      return copy;
    }
    function options() {
      var count = rows().filter(function (r) { return text(r).value.trim(); }).length;
      all("[data-option]", form).forEach(function (label) {
        var ok = count < 2 || (limits[label.dataset.option] || []).indexOf(count) >= 0;
        var box = label.querySelector("input");
        box.disabled = !ok; if (!ok) box.checked = false;
        label.classList.toggle("off", !ok);
      });
    }
    list.addEventListener("keydown", function (event) {
      if (event.key !== "Enter" || event.target.type !== "text") return;
      event.preventDefault();
      var next = event.target.value.trim() && event.target.closest(".name-row").nextElementSibling;
      if (next) text(next).focus(); else start.focus();
    });
    list.addEventListener("input", function () { names(); options(); });
    form.addEventListener("click", function (event) {
      var button = event.target.closest("button[name=action]");
      if (!button) return;
      var move = /^up-(\d+)$/.exec(button.value);
      if (button.value === "add") {
        event.preventDefault();
        var row = addRow(); if (row) text(row).focus();
      } else if (move) {
        event.preventDefault();
        var i = +move[1], j = i - 1, r = rows();
        if (!r[j]) return;
        var a = text(r[i]), b = text(r[j]), tmp = a.value;
        a.value = b.value; b.value = tmp;
        if (dealer.value === String(i)) dealer.value = String(j);  /* the dealer moves with the name */
        else if (dealer.value === String(j)) dealer.value = String(i);
        names();
        (r[j].querySelector(".move") || button).focus();
      }
    });
    names();
    options();
  }

  all("form.setup").forEach(setupForm);
})();
