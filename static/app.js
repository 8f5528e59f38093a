/* Bluke Scorekeeper: small enhancements. Every page works without this file.
   It never decides a rule: points and totals come from the server (data-p, data-t on each
   button, computed by the engine); here they are only shown. */
(function () {
  "use strict";
  var all = function (sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); };

  /* Keep the screen awake during a game, where the browser allows (Wake Lock API). */
  function keepAwake() {
    if (!("wakeLock" in navigator) || !document.body.dataset.awake) return;
    var ask = function () {
      if (document.visibilityState === "visible") navigator.wakeLock.request("screen").catch(function () {});
    };
    ask();
    document.addEventListener("visibilitychange", ask);
  }

  /* What the page says, in its language: base.html carries the server's translations as JSON
     (i18n.script_messages); a plural message has one form per CLDR category (Intl.PluralRules). */
  var messages = JSON.parse((document.getElementById("messages") || {}).textContent || "{}");
  var plurals = window.Intl && Intl.PluralRules ? new Intl.PluralRules(document.documentElement.lang || "en") : null;
  function say(key, values) { return format(messages[key], values); }
  function plural(n) { return plurals ? plurals.select(n) : n === 1 ? "one" : "other"; }
  /* A message (or one of its plural forms, by `values.n`) with its {name} / %(name)s filled in. */
  function format(text, values) {
    if (text && typeof text === "object") text = text[plural(values && values.n)] || text.other;
    return String(text || "").replace(/\{(\w+)\}|%\((\w+)\)[sd]/g, function (whole, a, b) {
      var name = a || b;
      return values && name in values ? values[name] : whole;
    });
  }
  /* Into sight, smoothly unless the player asked for less motion (a script's "smooth" overrides the
     stylesheet's scroll-behavior). */
  function glide(element) {
    var still = window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches;
    element.scrollIntoView({ block: "nearest", behavior: still ? "auto" : "smooth" });
  }
  window.bluke = { say: say, plural: plural, glide: glide };
  /* A score as read, with a true minus sign (scorekeeper/figures.py). */
  function minus(n) { return n < 0 ? "\u2212" + (-n) : String(n); }
  function signed(n) { return n > 0 ? "+" + n : minus(n); }

  /* Drafts: what was tapped in a hand form stays on the phone (localStorage) until it is saved,
     through a reload, back and forward, or the phone locking and the browser dropping the tab.
     Each notes the version it was tapped on (#at). */
  function draftKey(form) { return "bluke-draft:" + (form.dataset.draft || form.getAttribute("action")); }
  /* Kept on the phone even when its storage is full: the copies static/queue.js keeps of other
     games (bluke-known-<id>, one for each game scored here and not opened since) make room, one at a time. */
  function put(key, value) {
    var others;
    for (;;) {
      try { localStorage.setItem(key, value); return; } catch (e) {
        try {
          others = others || Object.keys(localStorage).filter(function (k) { return k.indexOf("bluke-known-") === 0 && k.slice(12) !== location.pathname.split("/")[2]; });
          if (!others.length) return;  /* nothing left to make room with */
          localStorage.removeItem(others.pop());
        } catch (e) { return; /* storage off */ }
      }
    }
  }
  function saveDraft(form) {
    var data = { "#at": versionOf(form) };
    all(".prow[data-manual] input:checked, input[name=trump]:checked", form).forEach(function (i) { data[i.name] = i.value; });
    put(draftKey(form), JSON.stringify(data));
  }
  function forgetDraft(form) {
    try { localStorage.removeItem(draftKey(form)); } catch (e) { /* storage off */ }
  }
  /* A form sent the browser's way (a correction) may never reach the server (a Wi-Fi without
     internet): its draft is kept, marked with the version it was sent at, and forgotten only once
     a page drawn after the save (a later version) shows the form again. */
  function versionOf(part) {
    var input = (part.closest("form") || part).querySelector("input[name=version]");
    return input ? +input.value : null;
  }
  function readDraft(form) {
    try { return JSON.parse(localStorage.getItem(draftKey(form)) || "null"); } catch (e) { return null; /* storage off */ }
  }
  function sentDraft(form) {
    var data = readDraft(form), version = versionOf(form);
    if (!data || version === null) { forgetDraft(form); return; }
    data["#sent"] = version;
    put(draftKey(form), JSON.stringify(data));
  }
  /* Taps over values the form shows (a correction, an undone step) come back only on the version
     they were tapped on: a later one was saved by another phone, and the taps would undo it. */
  function restoreDraft(form) {
    var data = readDraft(form), version = versionOf(form);
    if (data && ((data["#sent"] !== undefined && version > data["#sent"])
        || (data["#at"] !== version && form.querySelector(".prow input:checked")))) { forgetDraft(form); return; }
    if (!data || form.querySelector(".status.bad")) return;  /* a refused form shows what was sent */
    Object.keys(data).forEach(function (name) {
      var input = form.querySelector("input[name='" + name + "'][value='" + data[name] + "']");
      if (input) input.checked = true;
    });
  }

  /* A hand form: bids (auto-saved on the last tap) or tricks (the remainder fills the last row). */
  function handForm(form) {
    var step = form.dataset.step, cards = +form.dataset.cards;
    var rows = all(".prow", form), status = form.querySelector(".status");
    var button = form.querySelector("button[type=submit]");
    var last = {}, busy = false, byKeys = false, dock = form.querySelector(".dock.fixed");
    restoreDraft(form);
    /* The page ends clear of the docked bar however many lines its message takes (app.css, --dock). */
    if (dock && window.ResizeObserver) new ResizeObserver(function () {
      if (dock.isConnected) document.body.style.setProperty("--dock", dock.offsetHeight + "px");
    }).observe(dock);

    function checked(row) { return row.querySelector("input:checked"); }
    function value(row) { var c = checked(row); return c ? +c.value : null; }

    function update() {
      var values = rows.map(value), known = values.filter(function (v) { return v !== null; });
      var sum = known.reduce(function (a, b) { return a + b; }, 0), left = rows.length - known.length;
      var text, ready, bad = false;
      if (step === "bids") {
        var diff = sum - cards;  /* the cards dealt stay in sight: "9 bid for 13 cards" (screens.bids_status) */
        var bidFor = say("bid_for", { total: sum, n: cards });
        text = left ? say("to_go", { bid_for: bidFor, n: left })
          : say(diff === 0 ? "even" : diff > 0 ? "over" : "under", { bid_for: bidFor, diff: Math.abs(diff) });
        ready = !left;
      } else {
        var rest = cards - sum;
        var auto = rows.filter(function (row) { return row.classList.contains("auto"); })[0];
        text = rest > 0 ? say("to_place", { n: rest })
          : rest < 0 ? say("too_many", { n: -rest })
          : left ? say("placed_rest") : say("placed", { n: cards });
        if (auto && !left && rest === 0) {  /* the filled-in row may sit under the dock: name it here */
          text = say("placed_auto", { placed: text, name: auto.querySelector(".name").textContent, t: value(auto) });
        }
        bad = rest < 0;
        ready = !left && rest === 0;
        rows.forEach(function (row) {
          var c = checked(row), pts = row.querySelector(".pts"), after = row.querySelector(".after");
          if (!pts) return;
          pts.textContent = c ? signed(+c.dataset.p) : "";
          pts.classList.toggle("neg", !!c && +c.dataset.p < 0);
          after.textContent = c ? minus(+c.dataset.t) : after.dataset.base;
        });
      }
      var next = rows.filter(function (row) { return value(row) === null; })[0];
      rows.forEach(function (row) { row.classList.toggle("next", row === next); });
      status.textContent = text;
      status.classList.toggle("bad", bad);
      status.classList.toggle("ok", ready);
      if (button) button.disabled = !ready || busy;
      return ready;
    }

    /* The last player's tricks follow from the others (every trick is won by someone, R23). */
    function fillRemainder() {
      var open = rows.filter(function (r) { return !r.dataset.manual; });
      rows.forEach(function (r) {
        if (!r.classList.contains("auto") || r.dataset.manual) return;
        var c = checked(r);
        if (c) { c.checked = false; delete last[c.name]; }
        r.classList.remove("auto");
      });
      if (open.length !== 1) return;
      var sum = rows.filter(function (r) { return r.dataset.manual; }).reduce(function (a, r) { return a + value(r); }, 0);
      var target = open[0].querySelector("input[value='" + (cards - sum) + "']");
      if (target) { target.checked = true; open[0].classList.add("auto"); last[target.name] = target; }
    }

    function nextOpen(after) {
      var start = rows.indexOf(after);
      return rows.slice(start + 1).concat(rows.slice(0, start)).filter(function (r) { return value(r) === null; })[0];
    }

    rows.forEach(function (row) {
      var c = checked(row);
      if (c) { last[c.name] = c; row.dataset.manual = "1"; }
    });
    /* taps the page came with (an undo's, a clash's) stay if it is next opened from its plain link */
    if (form.action && !readDraft(form) && form.querySelector(".prow[data-manual]")) saveDraft(form);
    if (step === "tricks") fillRemainder();
    /* Arrow keys move through a radio group and "click" each button on the way (Space too): they
       must not save the bids on the first press; a keyboard user saves with Enter or the button. */
    form.addEventListener("keydown", function (event) { if (/^(Arrow| $)/.test(event.key)) byKeys = true; });
    form.addEventListener("pointerdown", function () { byKeys = false; });
    all("input[type=radio]", form).forEach(function (input) {
      input.addEventListener("click", function () {
        if (busy && last[input.name] === input) return;  /* saving the bids: a double tap keeps the last bid */
        var wasFull = rows.every(function (r) { return !!last[r.querySelector("input").name]; });
        /* tap again: clear; not the only bid of a row (one card, R13), which a tap out of habit would undo */
        if (last[input.name] === input && input.parentNode.children.length > 2) { input.checked = false; last[input.name] = null; }
        else last[input.name] = input;
        var row = input.closest(".prow");
        if (!row) { update(); saveDraft(form); return; }  /* the trump buttons */
        if (input.checked) row.dataset.manual = "1"; else delete row.dataset.manual;
        row.classList.remove("auto");
        if (step === "tricks") fillRemainder();
        var ready = update();
        saveDraft(form);
        if (step === "bids" && form.dataset.autosubmit && ready && !wasFull && input.checked && !byKeys) {
          busy = true; button.disabled = true;
          status.textContent = say("saving");
          /* a tap of its button: a submit event for the queue (static/queue.js) in every browser, where
             form.submit() sends none (Safari before 16 has no requestSubmit) */
          setTimeout(function () { button.disabled = false; button.click(); button.disabled = busy; }, 120);
          return;
        }
        var next = input.checked && nextOpen(row);
        if (next) glide(next);
      });
    });
    window.addEventListener("pageshow", function (event) {
      if (event.persisted) { busy = false; update(); }
    });
    form.refresh = update;  /* static/edit.js: the tricks again once the bids above them change */
    form.release = function () { busy = false; update(); };  /* a save that did not go (notSent) */
    if (!form.querySelector(".status.bad")) update();
    else if (button) button.disabled = false;
  }

  /* Share links: copy with one tap where the browser allows it. */
  function copyButtons() {
    if (!navigator.clipboard) return;
    all("[data-copy]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        var input = document.getElementById(button.dataset.copy);
        navigator.clipboard.writeText(input.value).then(function () { button.textContent = say("copied"); });
      });
    });
  }

  /* The scorer's screen follows another scorer's saves live, as the watch page does: the same
     cheap ?since=<version> poll (204 until something changes). Untouched, the page reloads; with
     taps on it, it says so and keeps them (saving then shows what the other scorer entered). Before
     it reloads for their save (by itself or by the note's link), the game as this phone knew it
     (#offline-game, kept up to date by static/queue.js) is kept for the reloaded page, which says
     which saved entries they changed or took back. */
  var BEFORE = "bluke-before:" + location.pathname;
  function keepBefore() {
    var doc = document.getElementById("offline-game");
    try { if (doc) sessionStorage.setItem(BEFORE, doc.textContent); } catch (e) { /* storage off */ }
  }
  function followOtherScorers() {
    if (!document.body.dataset.poll || !window.fetch) return;
    var timer = setInterval(function () {  /* the version polled moves on with this phone's own saves (static/queue.js) */
      if (document.visibilityState !== "visible" || document.body.dataset.sending) return;
      var asked = document.body.dataset.poll;  /* an answer about a version this phone has saved past is not news */
      fetch(asked, { headers: { "HX-Request": "true" }, credentials: "same-origin" }).then(function (answer) {
        if (answer.status !== 200 || document.body.dataset.sending || document.body.dataset.poll !== asked) return;
        clearInterval(timer);
        var tapped = all("form.hand .prow[data-manual] input ~ input").length > 0;  /* not a row with one bid only (R13) */
        if (!tapped) { keepBefore(); location.reload(); return; }
        var note = document.getElementById("changed-elsewhere");
        if (!note) return;
        note.hidden = false;
        all("a", note).forEach(function (link) { link.addEventListener("click", keepBefore); });
      }).catch(function () {});
    }, 2000);
  }

  /* The watch page (htmx asks for #live every second): without an answer the live dot stops and a
     line says that the score shown is the last one received; the next answer takes both away. Each
     new score renews the copy the service worker keeps, so a reload without a connection shows it. */
  function watchConnection() {
    var lost = document.getElementById("live-lost");
    if (!lost) return;
    /* htmx did not arrive (a connection that dropped it) or does not run here (Safari before 13.1):
       the page reloads itself while the game goes on, as it does without JavaScript (game.html). */
    if (document.body.dataset.awake) window.addEventListener("load", function () {  /* htmx runs after this script */
      if (!window.htmx) setTimeout(function () { location.reload(); }, 5000);
    });
    function cut(off) { lost.hidden = !off; document.body.classList.toggle("cut-off", off); }
    document.body.addEventListener("htmx:sendError", function () { cut(true); });
    document.body.addEventListener("htmx:timeout", function () { cut(true); });
    document.body.addEventListener("htmx:afterRequest", function (event) { cut(!event.detail.successful); });
    /* A new score keeps the scorecard scrolled where the watcher left it (the seats on the right). */
    var sheet = function () { return document.querySelector("#live .sheet-wrap") || {}; }, left = 0;
    document.body.addEventListener("htmx:beforeSwap", function () { left = sheet().scrollLeft; });
    document.body.addEventListener("htmx:afterSwap", function () {  /* a new score: the copy kept for offline too */
      sheet().scrollLeft = left;
      var worker = navigator.serviceWorker;
      if (worker && worker.controller) worker.controller.postMessage({ keep: location.href });
    });
  }

  /* The system share sheet (Web Share API) where the browser has one. */
  function shareButtons() {
    if (!navigator.share) return;
    all("[data-share]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        var url = document.getElementById(button.dataset.share).value;
        navigator.share({ title: button.dataset.title, url: url }).catch(function () {});
      });
    });
  }

  /* A double tap on any button that saves sends the form once (the server also stores once); a tap
     10 s later sends it again: a post the browser stopped (its ✕, a connection given up) leaves the
     page as it was. Without a connection a form the queue does not take (a correction, an undo; any
     form where the queue cannot run: no IndexedDB) is not sent at all: the browser would replace the
     app with its error page; the taps stay in the draft and the page says so (notSent). Sent, its
     taps stay in the draft until the server has drawn a later version (sentDraft). */
  function sendOnce(form) {
    form.addEventListener("submit", function (event) {
      if (Date.now() - (form.dataset.sent || 0) < 10000) { event.preventDefault(); return; }
      if (navigator.onLine === false && form.dataset.offline && !form.dataset.queueing) {
        event.preventDefault();
        notSent(form);
        return;
      }
      form.dataset.sent = Date.now();
      if (!form.dataset.queueing) all(".hand[data-step]", form.parentNode).filter(function (part) { return form.contains(part); }).forEach(sentDraft);
    });
  }
  /* The form's sentence for no connection (its data-offline), in its docked status line or else in
     the scorer's sync line. */
  function notSent(form) {
    if (form.release) form.release();
    var status = form.querySelector(".dock .status") || document.getElementById("sync");
    status.hidden = false;
    status.textContent = form.dataset.offline;
    status.classList.add("bad");
    status.classList.remove("ok");  /* the taps fit, but nothing was sent */
  }
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) all("form[data-sent]").forEach(function (form) { delete form.dataset.sent; });
  });

  /* The service worker keeps the app shell and the pages opened, for use without a connection;
     a page it did not see load (the first visit) asks to be kept once it is active. */
  function installWorker() {
    var url = document.documentElement.dataset.sw, worker = navigator.serviceWorker;
    if (!url || !worker) return;
    var first = !worker.controller;
    /* The home page is kept too, so that offline its "Home" leads to this phone's games. */
    worker.register(url).then(function () { return first && worker.ready; })
      .then(function (registration) {
        if (!registration) return;
        registration.active.postMessage({ keep: location.href });
        registration.active.postMessage({ keep: location.origin + "/" });
      })
      .catch(function () {});
    /* A game or group forgotten on this phone: none of its pages stays kept for offline use. */
    document.querySelectorAll("[data-forgotten]").forEach(function (item) {
      worker.ready.then(function (registration) { registration.active.postMessage({ drop: item.dataset.forgotten }); });
    });
  }

  /* The bars that stay on screen (the top bar, the dock) take at most a quarter of it: with large
     text the top bar scrolls with the page, then the dock too (html.loose, .looser in app.css; the
     32em query there sees page zoom, not a larger root font). Measured when the page opens and when
     the screen's width changes (page zoom, a phone turned): not as the address bar slides, and
     never on a change of the page's own size, which setting the classes itself makes. */
  function bars() {
    var root = document.documentElement.classList, width = 0;
    function fit() {
      if (innerWidth === width) return;
      width = innerWidth;
      root.remove("loose", "looser");
      var kept = [0, 0];  /* the heights of the top bars, of the docks, that stay put */
      all(".bar, .vt-top, .dock").forEach(function (e) {
        if (getComputedStyle(e).position !== "static") kept[+e.matches(".dock")] += e.offsetHeight;
      });
      root.toggle("loose", kept[0] + kept[1] > innerHeight / 4);
      root.toggle("looser", kept[1] > innerHeight / 4);
    }
    fit();
    window.addEventListener("resize", fit);
  }

  /* What static/queue.js, the scorer's offline queue, builds on. */
  window.BlukeApp = {
    handForm: handForm, saveDraft: saveDraft, put: put, notSent: notSent, forgetDraft: forgetDraft, say: format, messages: messages, minus: minus, before: BEFORE
  };

  /* The phone's time zone, for the dates the server writes (scorekeeper/i18n.py, select_timezone). */
  function timeZone() {
    var zone = window.Intl && Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && ("; " + document.cookie + ";").indexOf("; tz=" + zone + ";") < 0) document.cookie = "tz=" + zone + ";path=/;max-age=31536000;samesite=lax" + (location.protocol == "https:" ? ";secure" : "");
  }

  function init() {
    timeZone();
    bars();
    installWorker();
    keepAwake();
    all("form[method=post]").forEach(sendOnce);
    copyButtons();
    shareButtons();
    followOtherScorers();
    watchConnection();
    all(".hand[data-step]").forEach(handForm);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
