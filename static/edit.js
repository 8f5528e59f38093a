/* The correction page (templates/hand.html). Its tricks follow the bids tapped above them: each
   row's "bid N", the points and total of every button, the bids' total (points as the rule book
   scores them, static/rules.js: R19, R20). Its docked line says what still stops the save, in the
   words of the part that stops it, and the save waits until nothing does. */
(function () {
  "use strict";
  function start() {
    var edit = document.querySelector("form.hand-edit"), R = window.BlukeRules, App = window.BlukeApp;
    if (!edit || !R || !App) return;
    var bids = edit.querySelector(".hand.bids"), tricks = edit.querySelector(".hand.tricks");
    var dock = edit.querySelector(".dock .status"), save = edit.querySelector(".dock button[type=submit]");
    var told = dock.textContent;
    /* Tricks not recorded yet ("Edit bids" from the tricks step) may stay empty: the bids are saved alone. */
    var recorded = tricks && tricks.dataset.recorded;

    function follow() {
      if (!tricks) return;
      var total = 0;
      tricks.querySelectorAll(".prow").forEach(function (row) {
        var seat = row.querySelector(".taps input").name.split("_")[1];
        var tapped = bids.querySelector("input[name=bid_" + seat + "]:checked");
        if (!tapped) return;
        var bid = +tapped.value, before = +row.querySelector(".after").dataset.base.replace("\u2212", "-");
        total += bid;
        row.querySelector(".bidchip").textContent = App.say(App.messages.bid_chip, { bid: bid });
        row.querySelectorAll(".taps input").forEach(function (input) {
          var p = R.points(bid, +input.value);
          input.dataset.p = p;
          input.dataset.t = before + p;
        });
      });
      var line = tricks.querySelector(".bid-total");
      if (line) line.textContent = App.say(App.messages.bid_for, { total: total, n: +tricks.dataset.cards });
      if (tricks.refresh) tricks.refresh();
    }

    function dockLine() {
      var parts = [bids, tricks].filter(function (part) {
        return part === bids || (part && (recorded || part.querySelector(".taps input:checked")));
      });
      var lines = parts.map(function (part) { return part.querySelector(".status"); });
      var bad = lines.filter(function (s) { return s.classList.contains("bad"); })[0];
      var open = lines.filter(function (s) { return !s.classList.contains("ok"); })[0];
      dock.textContent = (bad || open) ? (bad || open).textContent : told;
      dock.classList.toggle("bad", !!bad);
      save.disabled = !!(bad || open);
    }

    /* Cancel and Back leave without saving: what was tapped here is not brought back next time. */
    document.querySelectorAll("a.cancel").forEach(function (link) {
      link.addEventListener("click", function () { edit.querySelectorAll(".hand[data-step]").forEach(App.forgetDraft); });
    });
    edit.addEventListener("click", function (event) {
      if (!event.target.matches("input[type=radio]")) return;
      if (bids.contains(event.target)) follow();
      dockLine();
    });
    follow();
    dockLine();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
