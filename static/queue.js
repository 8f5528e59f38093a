/* The scorer never loses an entry. On the scorer's page every hand entry (bids, tricks) is first
   kept on the phone, in IndexedDB, then sent to the server in order, each exactly once: an entry
   leaves the queue only when the server has answered it, and a repeat of an entry the server
   already stored is answered 200 without change (README, "Additions to the API"). Without a
   connection the next step of the game comes up here, computed with static/rules.js; the
   server stays the authority. If it refuses a queued entry (another phone changed the game),
   the scorer sees both versions and chooses. Every sentence comes from the page (#offline-words). */
(function () {
  "use strict";
  var R = window.BlukeRules, App = window.BlukeApp;
  var docNode = document.getElementById("offline-game");
  if (!docNode || !R || !App || !window.indexedDB || !window.fetch) return;
  var game = JSON.parse(docNode.textContent), words = JSON.parse(document.getElementById("offline-words").textContent);
  var names = game.players, n = names.length;
  var syncLine = document.getElementById("sync"), conflictBox = document.getElementById("conflict");
  var csrf = (document.querySelector("input[name=csrf_token]") || {}).value || "";
  var pending = [], busy = false, retry = null, local = false, opening = null, waited = false;
  var SENT = "bluke-all-sent";

  /* -- IndexedDB: one store of entries, oldest first (auto-increment keys) ---------------------- */
  function open() {
    opening = opening || new Promise(function (ok, fail) {
      var request = indexedDB.open("bluke-scorer", 1);
      request.onupgradeneeded = function () {
        request.result.createObjectStore("entries", { keyPath: "key", autoIncrement: true }).createIndex("game", "game");
      };
      request.onsuccess = function () { ok(request.result); };
      request.onerror = function () { fail(request.error); };
    });
    return opening;
  }
  function store(mode, work) {
    return open().then(function (db) {
      return new Promise(function (ok, fail) {
        var t = db.transaction("entries", mode), request = work(t.objectStore("entries"));
        t.oncomplete = function () { ok(request && request.result); };
        t.onerror = t.onabort = function () { fail(t.error); };
      });
    });
  }
  function saved() { return store("readonly", function (s) { return s.index("game").getAll(game.id); }); }
  function keep(entry) { return store("readwrite", function (s) { return s.add(entry); }).then(function (key) { entry.key = key; }); }
  /* The server took `entry` (now at `version`): it leaves the queue, the rest are based on that version. */
  function settle(entry, version) {
    return store("readwrite", function (s) {
      s.delete(entry.key);
      pending.slice(1).forEach(function (e) { e.base = version; s.put(e); });
    });
  }
  function forgetAll() { return store("readwrite", function (s) { pending.forEach(function (e) { s.delete(e.key); }); }); }

  /* -- the game as this phone knows it ------------------------------------------------------------ */
  function apply(entry) {
    var hand = game.hands[entry.number - 1];
    if (entry.step === "bids") { hand.bids = entry.values.slice(); hand.trump = entry.trump === undefined ? hand.trump : entry.trump; }
    else hand.tricks = entry.values.slice();
  }
  function current() {
    var hand = game.hands.filter(function (h) { return !(h.bids && h.tricks); })[0];
    return hand ? { hand: hand, step: hand.bids ? "tricks" : "bids" } : null;
  }

  /* -- the status line under the bar: offline — N waiting, sending, all sent, refused -------------- */
  function show(text, bad) {
    syncLine.hidden = !text;
    syncLine.textContent = text || "";
    syncLine.classList.toggle("bad", !!bad);
  }
  function waiting() {
    show(pending.length === 1 ? words.waiting_one : R.say(words, "waiting_many", { count: pending.length }));
  }

  /* -- sending, oldest first, one at a time -------------------------------------------------------- */
  function api(path) { return "/api/games/" + encodeURIComponent(game.id) + path; }
  function request(method, path, body) {
    return fetch(api(path), {
      method: method, credentials: "same-origin", cache: "no-store",
      headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrf },
      body: body ? JSON.stringify(body) : undefined
    }).then(function (answer) {
      return answer.json().then(function (data) { return { status: answer.status, data: data }; });
    });
  }
  function later() {
    clearTimeout(retry);
    retry = setTimeout(send, 5000);
  }
  function send() {
    if (busy || !pending.length || !conflictBox.hidden) return;
    busy = true;
    show(words.sending);
    var entry = pending[0], body = { version: entry.base };
    body[entry.step] = entry.values;
    if (entry.step === "bids" && entry.trump !== undefined) body.trump = entry.trump;
    request("PUT", "/hands/" + entry.number + "/" + entry.step, body).then(function (answer) {
      if (answer.status === 200) {
        return settle(entry, answer.data.version).then(function () {
          pending.shift();
          game.version = answer.data.version;
          busy = false;
          if (pending.length) return send();
          return sent(answer.data);
        });
      }
      busy = false;
      if (answer.status === 409 || answer.status === 422) return disagree(entry, answer.data.error);
      show(R.say(words, "refused", { message: answer.data.error.message }), true);
    }).catch(function () { busy = false; waited = true; waiting(); later(); });
  }
  /* Everything is on the server: show its own page again (scorecard and all), unless the scorer is
     tapping the next step, whose taps would then only wait in the draft; then just note the version. */
  function sent(doc) {
    if (waited) show(words.all_sent); else show("");
    var form = document.querySelector("form.hand[data-queue]");
    var tapping = form && form.querySelector("input[type=radio]:checked:not([name=trump])");
    if (local && !tapping) {
      try { if (waited) sessionStorage.setItem(SENT, game.id); } catch (e) { /* storage off */ }
      location.replace(location.pathname);
      return;
    }
    document.querySelectorAll("input[name=version]").forEach(function (input) { input.value = doc.version; });
  }

  /* -- a refused entry: both versions side by side, the scorer chooses ------------------------------ */
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { if (attrs[k] !== null && attrs[k] !== undefined) node.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) { if (c !== null) node.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return node;
  }
  function values(list) {
    return list ? names.map(function (name, seat) { return name + " " + list[seat]; }).join(" · ") : words.conflict_nothing;
  }
  function disagree(entry, error) {
    request("GET", "").then(function (answer) {
      var theirs = answer.data.hands[entry.number - 1] || {};
      var step = entry.step === "bids" ? words.step_bids : words.step_tricks;
      var keepServer = el("button", { type: "button", "class": "button" }, [words.keep_server]);
      var usePhone = el("button", { type: "button", "class": "button primary" }, [words.use_phone]);
      conflictBox.textContent = "";
      [el("h2", { id: "conflict-h" }, [words.conflict_title]), el("p", { "class": "muted" }, [error.message]),
       el("p", {}, [R.say(words, "conflict_hand", { number: entry.number, step: step })]),
       el("dl", {}, [el("dt", {}, [words.conflict_server]), el("dd", { "class": "theirs" }, [values(theirs[entry.step])]),
                     el("dt", {}, [words.conflict_phone]), el("dd", { "class": "mine" }, [values(entry.values)])]),
       el("div", { "class": "dock-buttons" }, [keepServer, usePhone])].forEach(function (c) { conflictBox.appendChild(c); });
      conflictBox.hidden = false;
      show(R.say(words, "refused", { message: error.message }), true);
      conflictBox.scrollIntoView({ block: "start" });
      keepServer.addEventListener("click", function () {
        forgetAll().then(function () { location.replace(location.pathname); });
      });
      usePhone.addEventListener("click", function () {
        pending.forEach(function (e) { e.base = answer.data.version; });
        store("readwrite", function (s) { pending.forEach(function (e) { s.put(e); }); }).then(function () {
          conflictBox.hidden = true;
          send();
        });
      });
    }).catch(function () { waiting(); later(); });
  }

  /* -- the hand form, drawn from the game as this phone knows it (as templates/_hand.html draws it) -- */
  function minus(value) { return value < 0 ? "\u2212" + (-value) : String(value); }
  function radio(name, id, value, extra) {
    return [el("input", Object.assign({ type: "radio", name: name, id: id, value: String(value) }, extra || {})),
            el("label", { "for": id }, [String(value)])];
  }
  function form(hand, step) {
    var number = hand.number, cards = hand.cards, kind = step === "bids" ? "bid" : "tricks";
    var order = R.biddingOrder(hand.dealer, n), before = hand.number > 1 ? R.totals(game.hands, n)[number - 2] : names.map(function () { return 0; });
    var trumps = words.trumps, low = step === "bids" ? R.minBid(game.options) : 0;
    var steps = step === "bids"
      ? [el("li", { "class": "on", "aria-current": "step" }, [el("span", { "class": "stepno", "aria-hidden": "true" }, ["1"]), words.step_bids]),
         el("li", { "class": "later" }, [el("span", { "class": "stepno", "aria-hidden": "true" }, ["2"]), words.step_tricks])]
      : [el("li", { "class": "done" }, [el("a", { href: "/g/" + encodeURIComponent(game.id) + "/hands/" + number, "aria-label": R.say(words, "back_to_bids", { number: number }) },
           [el("span", { "class": "stepno", "aria-hidden": "true" }, ["\u2713"]), words.step_bids])]),
         el("li", { "class": "on", "aria-current": "step" }, [el("span", { "class": "stepno", "aria-hidden": "true" }, ["2"]), words.step_tricks])];
    var head = el("header", { "class": "hand-head" }, [
      el("div", { "class": "hand-title" }, [
        el("h1", {}, [R.say(words, "hand", { number: number }), el("span", { "class": "of" }, [R.say(words, "of", { count: game.hands.length })])]),
        el("ol", { "class": "steps", "aria-label": R.say(words, "step_label", { number: number }) }, steps)]),
      el("p", { "class": "hand-meta" }, [el("b", { "class": "cards" }, [cards === 1 ? words.card_one : R.say(words, "card_many", { cards: cards })]),
        " · ", el("b", {}, [names[hand.dealer]]), " " + words.deals + " · ", el("b", {}, [names[order[0]]]), " " + words.bids_first])]);
    if (step === "bids" && R.hasTurnUp(n, cards)) {
      var group = el("div", { "class": "trumps", role: "radiogroup", "aria-labelledby": "trump-" + number }, [el("span", { "class": "label", id: "trump-" + number }, [words.trump])]);
      trumps.forEach(function (t) {
        group.appendChild(el("input", { type: "radio", name: "trump", id: "t" + number + t[0], value: t[0] }));
        group.appendChild(el("label", { "for": "t" + number + t[0], "class": "pip " + t[0], title: t[2] }, [el("span", { "aria-hidden": "true" }, [t[1]]), el("span", { "class": "sr" }, [t[2]])]));
      });
      group.appendChild(el("input", { type: "radio", name: "trump", id: "t" + number + "none", value: "none" }));
      group.appendChild(el("label", { "for": "t" + number + "none", "class": "pip none" }, [words.no_trump]));
      group.appendChild(el("input", { type: "radio", name: "trump", id: "t" + number + "-", value: "", checked: "" }));
      group.appendChild(el("label", { "for": "t" + number + "-", "class": "pip none", title: words.trump_none_title }, [words.trump_none]));
      head.appendChild(group);
    } else if (step === "bids") {
      head.appendChild(el("p", { "class": "hand-meta" }, [words.no_turn_up]));
    } else {
      var pip = trumps.filter(function (t) { return t[0] === hand.trump; })[0];
      var total = hand.bids.reduce(function (a, b) { return a + b; }, 0);
      head.appendChild(el("p", { "class": "hand-meta" }, [pip ? words.trump_noted + " " : words.no_trump_noted,
        pip ? el("b", { "class": "pip-text " + pip[0] }, [pip[1]]) : null, " · ",
        el("b", {}, [R.say(words, cards === 1 ? "bid_for_one" : "bid_for_many", { total: total, cards: cards })])]));
    }
    var count = cards - low + 1, lines = Math.floor((count + 6) / 7);
    var rows = el("div", { "class": "rows cols-" + Math.floor((count + lines - 1) / lines) });
    order.forEach(function (seat, i) {  /* both steps in bidding order, as the server draws them */
      var rid = kind + seat, bid = step === "tricks" ? hand.bids[seat] : null;
      var aside = step === "bids"
        ? el("span", { "class": "aside" }, [el("span", { "class": "muted" }, [words.total]), " ", el("b", { "class": "num" }, [minus(before[seat])])])
        : el("span", { "class": "aside" }, [el("span", { "class": "bidchip" }, [R.say(words, "bid_chip", { bid: bid })]), " ",
            el("output", { "class": "pts" }), " ", el("output", { "class": "after num", "data-base": minus(before[seat]) }, [minus(before[seat])])]);
      var taps = el("div", { "class": "taps" });
      for (var v = low; v <= cards; v++) {
        var extra = step === "tricks" ? { "data-p": R.points(bid, v), "data-t": before[seat] + R.points(bid, v) } : null;
        radio(kind + "_" + seat, rid + "-" + v, v, extra).forEach(function (node) { taps.appendChild(node); });
      }
      rows.appendChild(el("div", { "class": "prow", id: rid, role: "radiogroup", "aria-labelledby": rid + "-who" }, [
        el("div", { "class": "who" }, [el("span", { "class": "pos", title: R.say(words, "pos_title", { position: i + 1 }), "aria-hidden": "true" }, [String(i + 1)]),
          el("span", { "class": "name", id: rid + "-who" }, [names[seat]]),
          seat === hand.dealer ? el("span", { "class": "tag deal" }, [words.tag_deals]) : null,
          step === "bids" && seat === order[0] ? el("span", { "class": "tag" }, [words.tag_first]) : null, aside]),
        taps]));
    });
    var action = "/g/" + encodeURIComponent(game.id) + "/hands/" + number + "/" + step;
    return el("form", { "class": "hand " + step, id: step + "-form", method: "post", novalidate: "", action: action,
                        "data-step": step, "data-cards": cards, "data-autosubmit": step === "bids" ? "1" : null, "data-queue": "1" }, [
      el("input", { type: "hidden", name: "csrf_token", value: csrf }),
      el("input", { type: "hidden", name: "version", value: game.version }),
      head, rows,
      el("div", { "class": "dock fixed" }, [el("p", { "class": "status", "aria-live": "polite" }),
        el("div", { "class": "dock-buttons" }, [el("button", { "class": "button primary", type: "submit" },
          [step === "bids" ? words.save_bids : R.say(words, "record_hand", { number: number })])])])]);
  }

  /* Draw the step the game is at (this phone's view), in place of the one on the page. */
  function draw() {
    var old = document.querySelector("form.hand[data-queue]"), now = current();
    if (!old) return;
    local = true;
    if (!now) {
      old.replaceWith(el("section", { "class": "panel", id: "finished-here" }, [el("p", {}, [words.finished])]));
      document.body.classList.remove("docked");
      return;
    }
    var fresh = form(now.hand, now.step);
    old.replaceWith(fresh);
    App.handForm(fresh);
    watch(fresh);
    var top = fresh.querySelector(".hand-head");
    if (top) top.scrollIntoView({ block: "start" });
  }

  /* -- recording: the phone's checks (R22, R23, R25), then the queue --------------------------------- */
  function read(f) {
    var step = f.dataset.step, kind = step === "bids" ? "bid" : "tricks";
    var out = [];
    for (var seat = 0; seat < n; seat++) {
      var c = f.querySelector("input[name=" + kind + "_" + seat + "]:checked");
      out.push(c ? +c.value : null);
    }
    return out;
  }
  function problem(f, number, step, list) {
    var hand = game.hands[number - 1], cards = hand.cards, message = null;
    var previous = game.hands[number - 2];
    message = R.checkOrder(number, step, !previous || !!(previous.bids && previous.tricks), !!hand.bids, words);
    list.forEach(function (v, seat) {
      if (message) return;
      if (v === null) message = R.say(words, step === "bids" ? "missing_bid" : "missing_tricks", { who: names[seat] });
      else message = step === "bids" ? R.checkBid(v, cards, R.minBid(game.options), number, names[seat], words)
        : R.checkTaken(v, cards, number, names[seat], words);
    });
    return message || (step === "tricks" ? R.checkTotal(list, cards, number, words) : null);
  }
  function watch(f) {
    f.addEventListener("submit", function (event) {
      event.preventDefault();
      var step = f.dataset.step, number = +/\/hands\/(\d+)\//.exec(f.getAttribute("action"))[1], list = read(f);
      var message = problem(f, number, step, list), status = f.querySelector(".status");
      if (message) {
        status.textContent = message; status.classList.add("bad");
        delete f.dataset.sent;
        return;
      }
      var trump = f.querySelector("input[name=trump]:checked");
      var entry = { game: game.id, number: number, step: step, values: list, base: game.version, at: Date.now() };
      /* "none": no trump (null in the API, R12); "": not noted (left out of the request) */
      if (step === "bids" && trump && trump.value) entry.trump = trump.value === "none" ? null : trump.value;
      if (pending.length) entry.base = pending[0].base;
      keep(entry).then(function () {
        App.forgetDraft(f);
        pending.push(entry);
        apply(entry);
        draw();
        send();
      }, function () {
        f.submit();  // no IndexedDB (private mode): the plain form still works while online
      });
    });
  }

  try {  /* entries that waited were sent just before this page loaded: say so once */
    if (sessionStorage.getItem(SENT) === game.id) { show(words.all_sent); sessionStorage.removeItem(SENT); }
  } catch (e) { /* storage off */ }
  window.addEventListener("online", function () { clearTimeout(retry); send(); });
  document.querySelectorAll("form.hand[data-queue]").forEach(watch);
  saved().then(function (entries) {
    pending = (entries || []).sort(function (a, b) { return a.key - b.key; });
    if (!pending.length) return;
    pending.forEach(apply);
    draw();
    waiting();
    send();
  }).catch(function () {});
})();
