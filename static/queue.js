/* The scorer never loses an entry. On the scorer's page every hand entry (bids, tricks) is first
   kept on the phone, in IndexedDB, then sent to the server in order, each exactly once: an entry
   leaves the queue only when the server has answered it, and a repeat of an entry the server
   already stored is answered 200 without change (README, "Additions to the API"). Without a
   connection the next step of the game comes up here, computed with static/rules.js; the
   server stays the authority. If it refuses a queued entry (another phone changed the game),
   the scorer sees both versions and chooses (static/queue-rare.js, loaded only then). Every
   sentence comes from the page (#offline-words). */
(function () {
  "use strict";
  var R = window.BlukeRules, App = window.BlukeApp;
  var docNode = document.getElementById("offline-game");
  if (!docNode || !R || !App || !window.indexedDB || !window.fetch) return;
  var game = JSON.parse(docNode.textContent), words = JSON.parse(document.getElementById("offline-words").textContent);
  var names = game.players, n = names.length;
  var syncLine = document.getElementById("sync"), conflictBox = document.getElementById("conflict");
  var pending = [], busy = false, retry = null, local = false, opening = null, waited = false;
  var SENT = "bluke-all-sent", KNOWN = "bluke-known-" + game.id;
  /* The hand the server's copy of the page is at, and the entries this phone made since it was drawn. */
  var at = (current() ? current().hand : game.hands[game.hands.length - 1]).number, made = 0;
  /* The game as the server last confirmed it to this phone. A page kept by the service worker can
     be older than entries this phone has since sent (the scorer was tapping on when they went, so
     the page was not drawn again): opened without a connection, it goes on from what was sent, not
     from its own copy, which would ask again for a step the server already has. */
  try {
    var known = JSON.parse(localStorage.getItem(KNOWN) || "null");
    if (known && known.version > game.version) {
      made = Math.max(0, steps(known) - steps(game));
      game = known;
    } else localStorage.removeItem(KNOWN);
  } catch (e) { /* storage off */ }
  var confirmed = JSON.parse(JSON.stringify(game));  /* without the entries still waiting */
  function steps(g) { return g.hands.reduce(function (sum, h) { return sum + !!h.bids + !!h.tricks; }, 0); }
  /* An entry the server took (or none), at `version`. The page's game document follows, so that
     static/app.js keeps what this phone knew when another scorer's save reloads the page (told(),
     static/queue-rare.js). */
  function remember(entry, version) {
    if (entry) apply(entry, confirmed);
    confirmed.version = version;
    docNode.textContent = JSON.stringify(confirmed);
    App.put(KNOWN, JSON.stringify(confirmed));
  }

  /* -- IndexedDB: one store of entries, oldest first (auto-increment keys) ---------------------- */
  function open() {
    opening = opening || new Promise(function (ok, fail) {
      setTimeout(fail, 3000);  /* never answered (Safari on iOS 14.6): as without IndexedDB, the plain form */
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
  /* The server took `entry` (now at `version`): it leaves the queue. The rest move on to `version`
     only if that write was the one change since their base; else another phone wrote, and they
     are refused (409) and shown. The rest are the phone's, not only this page's: another tab may
     have added to them, and been closed since. An entry of that tab for the same step is not one
     that follows: it stays on its base, to be refused and shown beside what was stored, never
     sent over it. Resolves to whether this phone still knows the game. */
  function settle(entry, version) {
    var from = entry.base, moved = version === from + 1;
    function follows(e) { return e.base === from && !(e.number === entry.number && e.step === entry.step); }
    pending.forEach(function (e) { if (moved && follows(e)) e.base = version; });
    return store("readwrite", function (s) {
      s.delete(entry.key);
      if (moved) s.index("game").openCursor(game.id).onsuccess = function (event) {
        var at = event.target.result;
        if (!at) return;
        if (follows(at.value)) { at.value.base = version; at.update(at.value); }
        at.continue();
      };
    }).then(function () { return moved || version === from; });
  }
  function forget(entry) { return store("readwrite", function (s) { s.delete(entry.key); }); }
  /* The entry's mark `name` (tried, undo), when set, kept with it on the phone: the page may be
     loaded again before the server answers. Resolves to the entry as kept (none: gone meanwhile). */
  function mark(entry, name) {
    return store("readwrite", function (s) {
      var r = s.get(entry.key);
      r.onsuccess = function () { if (r.result && entry[name]) { r.result[name] = true; s.put(r.result); } };
      return r;
    });
  }

  /* -- the game as this phone knows it ------------------------------------------------------------ */
  function apply(entry, into) {  /* into this phone's game, or `confirmed` */
    var hand = (into || game).hands[entry.number - 1];
    if (entry.step === "bids") {
      hand.bids = entry.values.slice();
      if (!into) entry.was = hand.trump;  /* for a take-back (undo) */
      if (entry.trump !== undefined) hand.trump = trumpButton(entry);
    }
    else hand.tricks = entry.values.slice();
  }
  /* An entry's trump as the buttons name it: "none" for no trump (null), "" when not noted. */
  function trumpButton(entry) { return entry.trump === undefined ? "" : entry.trump === null ? "none" : entry.trump; }
  function current() {
    var hand = game.hands.filter(function (h) { return !(h.bids && h.tricks); })[0];
    return hand ? { hand: hand, step: hand.bids ? "tricks" : "bids" } : null;
  }

  /* -- the status line under the bar: offline — N waiting, sending, all sent, refused -------------- */
  function show(text, bad) {
    syncLine.textContent = text || "";  /* empty, it takes no room (app.css) */
    syncLine.classList.toggle("bad", !!bad);
  }
  /* Online, the server did not answer (5xx, 429, answer lost). */
  function waiting() {
    show(App.say(navigator.onLine === false ? words.waiting : words.unanswered, { n: pending.length }));
  }

  /* -- sending, oldest first, one at a time -------------------------------------------------------- */
  function api(path) { return "/api/games/" + encodeURIComponent(game.id) + path; }
  function request(method, path, body) {
    /* An answer not come in 15 s is taken for lost: the entry is tried again, not stuck "sending". */
    var stop = window.AbortController && new AbortController();
    if (stop) setTimeout(function () { stop.abort(); }, 15000);
    return fetch(api(path), {
      method: method, credentials: "same-origin", cache: "no-store", signal: stop && stop.signal,
      /* the page's token: a fresh one replaces it in the page's forms (static/queue-rare.js, renew) */
      headers: { "Content-Type": "application/json", "Accept": "application/json",
                 "X-CSRFToken": (document.querySelector("input[name=csrf_token]") || {}).value || "" },
      body: body ? JSON.stringify(body) : undefined
    }).then(function (answer) {
      return answer.json().then(function (data) { return { status: answer.status, data: data, csrf: answer.headers.has("X-Bluke-CSRF") }; });
    });
  }
  /* Tried again after 5 s, then twice as long each time up to a minute, and at once when the
     phone says it is back online. */
  var pause = 5000;
  function later() {
    clearTimeout(retry);
    retry = setTimeout(send, pause);
    pause = Math.min(pause * 2, 60000);
  }
  function send() {
    if (busy || !pending.length || !conflictBox.hidden) return;
    busy = true;
    document.body.dataset.sending = "1";  /* the poll (static/app.js) reloads only once all are sent */
    show(words.sending);
    var entry = pending[0], body = { version: entry.base };
    /* Sent while online, it may be stored even if its answer is lost (the phone may be offline by then). */
    entry.tried = entry.tried || navigator.onLine !== false;
    body[entry.step] = entry.values;
    if (entry.step === "bids" && entry.trump !== undefined) body.trump = entry.trump;
    /* Another tab of this phone may have sent the entry or taken it back (undo) since this page read
       the queue (IndexedDB is the phone's, this page's list its own): sent from here, an entry taken
       back would be stored after all. Gone, the page is loaded again, to go on from the queue as it
       is now; the chain stops here (nothing is "waiting"). */
    mark(entry, "tried").then(function (kept) {
      if (!kept) { location.replace(location.pathname); return new Promise(function () {}); }
      return request("PUT", "/hands/" + entry.number + "/" + entry.step, body);
    }).then(function (answer) {
      if (answer.status === 200) return took(entry, answer.data.version);
      busy = false;
      if (answer.status >= 500 || answer.status === 408 || answer.status === 429) throw answer;  /* the server's trouble, not the entry's */
      return rare(function (more) { return more.refused(entry, answer); });  /* an answer about the entry */
    }).catch(function () { busy = false; waited = true; waiting(); later(); });
  }
  /* The server holds `entry` (at `version`): off the queue, and on to the next. */
  function took(entry, version) {
    busy = true;
    pause = 5000;
    return settle(entry, version).then(function (known) {
      pending.shift();
      if (known) { game.version = version; remember(entry, version); caughtUp(); }
      busy = false;
      if (pending.length) return send();
      return sent();
    });
  }
  /* The page's writes and its watch for other scorers' saves go on from the version this phone knows. */
  function caughtUp() {
    document.querySelectorAll("input[name=version]").forEach(function (input) { input.value = game.version; });
    var poll = document.body.dataset.poll;
    if (poll) document.body.dataset.poll = poll.replace(/since=\d+/, "since=" + game.version);
  }
  /* Everything is on the server: show its own page again (scorecard and all), unless the scorer is
     tapping the next step drawn here, whose taps would then only wait in the draft. */
  function sent() {
    if (undoAsked) { undoLabel(); undoForm.submit(); return; }  /* still "sending": the poll must not reload the page over the undo */
    delete document.body.dataset.sending;
    if (waited) show(words.all_sent); else show("");
    var form = document.querySelector("form.hand[data-queue]");
    /* the form of an entry just sent is not the next step being tapped, nor is a bid drawn tapped (one card) */
    var tapping = form && !form.dataset.queued && form.querySelector("input[type=radio]:checked:not([name=trump]):not([checked])");
    if (made && (!local || !tapping)) {
      try { if (waited) sessionStorage.setItem(SENT, game.id); } catch (e) { /* storage off */ }
      location.replace(location.pathname);
    }
  }

  /* -- undo: the latest entry, which may still be on this phone ------------------------------------- */
  /* The button names the latest entry of the game as this phone knows it. Still waiting on this
     phone, that entry is taken back here, with or without a connection: its step comes up again
     with its taps, as after the server's undo, to change what was wrong and save. Already on its
     way (the one request in flight, or one whose answer was lost, so the server may have it), the
     undo is sent once it is on the server; an entry made before then lets that undo go. */
  var undoForm = document.getElementById("undo-form"), undoAsked = false;
  function undoLabel() {
    var hand = game.hands.filter(function (h) { return h.bids; }).pop(), button = document.querySelector("button[form=undo-form]");
    if (!undoForm || !button) return;
    button.hidden = !hand;
    if (!hand) return;
    var text = App.say(hand.tricks ? words.undo_tricks : words.undo_bids, { number: hand.number });
    button.title = text;
    button.setAttribute("aria-label", text);
    undoForm.querySelector("input[name=number]").value = hand.number;
  }
  document.addEventListener("submit", function (event) {  /* capture: before static/app.js sees it */
    if (event.target !== undoForm || !pending.length) return;
    event.preventDefault();
    event.stopPropagation();
    if (!conflictBox.hidden) { conflictBox.scrollIntoView({ block: "start" }); return; }  /* the choice first */
    if ((busy || pending[0].tried) && pending.length === 1) {  /* on its way, or maybe stored: undone there */
      undoAsked = pending[0].undo = true; show(words.sending);
      mark(pending[0], "undo");
      if (!busy) send();
      return;
    }
    /* Out of the queue at once, so that an answer to the entry on its way does not store it again. */
    var entry = pending.pop(), hand = game.hands[entry.number - 1];
    made--;
    if (!pending.length) delete document.body.dataset.sending;  /* nothing left to send: the poll follows other phones again */
    forget(entry);
    hand[entry.step] = null;
    if (entry.step === "bids") hand.trump = entry.was;
    draw(entry);
    show(App.say(entry.step === "bids" ? words.undone_bids : words.undone_tricks, { number: entry.number }));
  }, true);

  /* -- what the queue rarely needs, in static/queue-rare.js: a refused entry's box (both versions side
        by side, the scorer chooses), a fresh CSRF token, the note of saved entries another phone
        changed. Loaded the first time it is needed; the service worker keeps it with the app's other
        files, so it is there on a phone that has been offline since (scorekeeper/offline/routes.py);
        its address, with its version, is on this script's tag (game.html). */
  var Q = {
    game: game, confirmed: confirmed, words: words, store: store, request: request, send: send, show: show,
    follow: follow, trumpButton: trumpButton, took: took, get pending() { return pending; }
  }, loading = null;
  function rare(work) {
    loading = loading || new Promise(function (ok, fail) {
      var script = document.createElement("script");
      script.src = document.querySelector("script[data-rare]").dataset.rare;
      script.onload = function () { ok(window.BlukeQueueRare(Q)); };
      script.onerror = function () { loading = null; fail(); };
      document.head.appendChild(script);
    });
    return loading.then(work);
  }
  /* The server's game at `version` taken as this phone's (another phone's save, `taken` the one of
     a refused entry, which leaves the queue): the steps drawn here go on from it. */
  function follow(version, taken) {
    game.version = version;
    remember(null, version);
    caughtUp();
    if (taken) made = Math.max(0, made - 1);
    if (local) draw();
  }
  /* -- the next step, copied from the page's own hand form (_offline.html: _hand.html drawn once
        with {number}-style marks): here only the marks are filled, the rows put in the bidding
        order and what this hand does not have taken away, so the markup has one source. ------- */
  function drop(root, selector) { root.querySelectorAll(selector).forEach(function (node) { node.remove(); }); }
  function fill(root, values) {  /* every {mark} in the text and the attributes, in one pass */
    var marks = function (text) {
      return text.replace(/\{(\w+)\}/g, function (all, key) { return key in values ? String(values[key]) : all; });
    };
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT), node = root;
    for (; node; node = walker.nextNode()) {
      if (node.nodeType === Node.TEXT_NODE) node.nodeValue = marks(node.nodeValue);
      else Array.prototype.forEach.call(node.attributes, function (a) { a.value = marks(a.value); });
    }
  }
  function form(hand, step) {
    var number = hand.number, cards = hand.cards, order = R.biddingOrder(hand.dealer, n);
    var before = number > 1 ? R.totals(game.hands, n)[number - 2] : names.map(function () { return 0; });
    var f = document.importNode(document.getElementById("proto-" + step).content, true).querySelector("form");
    var rows = f.querySelector(".rows"), model = rows.querySelector(".prow");
    model.remove();
    /* the hand's marks first: the players' names filled in after them are never read as marks */
    fill(f, { number: number, dealer: names[hand.dealer], first: names[order[0]], version: game.version });
    order.forEach(function (seat, i) {  /* both steps in bidding order, as the server draws them */
      var row = model.cloneNode(true), bid = step === "bids" ? null : hand.bids[seat];
      fill(row, { seat: seat, name: names[seat], position: i + 1, bid: bid });
      if (seat !== hand.dealer) drop(row, ".tag.deal");
      if (seat !== order[0]) drop(row, ".tag:not(.deal)");
      row.querySelectorAll(".taps input").forEach(function (input) {
        var value = +input.value;
        if (value > cards) { input.nextElementSibling.remove(); input.remove(); return; }
        if (bid !== null) { input.dataset.p = R.points(bid, value); input.dataset.t = before[seat] + R.points(bid, value); }
      });
      var taps = row.querySelectorAll(".taps input");
      if (taps.length === 1 && bid === null) taps[0].defaultChecked = true;  /* one card, zero bids off: every bid is 1 (R13), tapped as the server draws it */
      row.querySelectorAll(".num").forEach(function (total) { total.textContent = App.minus(before[seat]); });
      row.querySelectorAll(".after").forEach(function (after) { after.dataset.base = App.minus(before[seat]); });
      rows.appendChild(row);
    });
    rows.className = "rows cols-" + game.columns[rows.querySelectorAll(".prow:first-child input").length];
    f.dataset.cards = cards;
    f.querySelector(".cards").textContent = App.say(words.cards, { num: cards, n: cards });
    if (number === 1 || !document.getElementById("standings")) drop(f, ".to-standings");
    if (step === "bids") drop(f, R.hasTurnUp(n, cards) ? ".no-turn-up" : ".trumps");
    else {
      /* Bids still on this phone are changed by taking them back here (undo), not on the server's page. */
      var edit = f.querySelector("a.ghost");
      if (edit && pending.some(function (e) { return e.number === number; })) {
        edit.onclick = function (event) { event.preventDefault(); document.querySelector("button[form=undo-form]").click(); };
      }
      var key = R.hasTurnUp(n, cards) ? hand.trump : "dealt";
      var note = f.querySelector(".trump-note"), model = document.getElementById("trump-notes").content.querySelector("[data-trump='" + key + "']");
      note.textContent = "";
      Array.prototype.forEach.call(model.childNodes, function (c) { note.appendChild(document.importNode(c, true)); });
      f.querySelector(".bid-total").textContent = App.say(App.messages.bid_for, { total: hand.bids.reduce(function (a, b) { return a + b; }, 0), n: cards });
    }
    return f;
  }

  /* The scorecard and the standings below stay the server's copy until the page comes back from
     it: they say so, how far they go and how many entries are not in them, so that nobody reads
     their totals as the game's. */
  function stale() {
    var text = App.say(words.stale, { number: at, n: made });
    document.querySelectorAll("#standings, .sheet-panel").forEach(function (panel) {
      var note = panel.querySelector(".stale");
      if (!note) {
        note = panel.insertBefore(document.createElement("p"), panel.children[1]);
        note.className = "alert stale";
        note.setAttribute("role", "note");
      }
      note.textContent = text;
    });
  }

  /* Draw the step the game is at (this phone's view), in place of the one on the page; `again`,
     an entry taken back, comes up still tapped. */
  function tapped(f, entry) {
    var kind = entry.step === "bids" ? "bid" : "tricks";
    entry.values.forEach(function (v, seat) {
      var input = f.querySelector("input[name=" + kind + "_" + seat + "][value='" + v + "']");
      if (input) input.checked = true;
    });
    var trump = trumpButton(entry), button = trump && f.querySelector("input[name=trump][value='" + trump + "']");
    if (button) button.checked = true;
  }
  function draw(again) {
    var old = document.querySelector("form.hand[data-queue]"), now = current();
    if (!old) return;
    local = true;
    stale();
    undoLabel();
    if (!now) {
      var done = document.createElement("section");
      done.className = "panel";
      done.id = "finished-here";
      done.appendChild(document.createElement("p")).textContent = words.finished;
      old.replaceWith(done);
      document.body.classList.remove("docked");
      return;
    }
    var fresh = form(now.hand, now.step);
    old.replaceWith(fresh);
    if (again) tapped(fresh, again);
    App.handForm(fresh);
    if (again) App.saveDraft(fresh);
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
      if (v === null) message = R.say(words, step === "bids" ? "missing_bid" : "missing_tricks", { name: names[seat] });
      else message = step === "bids" ? R.checkBid(v, cards, R.minBid(game.options), number, names[seat], words)
        : R.checkTaken(v, cards, number, names[seat], words);
    });
    return message || (step === "tricks" ? R.checkTotal(list, cards, number, words) : null);
  }
  function watch(f) {
    f.dataset.queueing = "1";  /* its saves are this queue's (static/app.js) */
    f.addEventListener("submit", function (event) {
      if (event.defaultPrevented) return;  /* a second tap (static/app.js): the entry is made once */
      event.preventDefault();
      var step = f.dataset.step, number = +/\/hands\/(\d+)\//.exec(f.getAttribute("action"))[1], list = read(f);
      var message = problem(f, number, step, list), status = f.querySelector(".status");
      if (message) {
        status.textContent = message; status.classList.add("bad");
        delete f.dataset.sent;
        return;
      }
      if (f.dataset.queued) return;  /* a second tap */
      if (!conflictBox.hidden) {  /* a refused entry waits for the scorer's choice first: nothing goes past it */
        conflictBox.scrollIntoView({ block: "start" });
        return;
      }
      f.dataset.queued = "1";
      var trump = f.querySelector("input[name=trump]:checked");
      var entry = { game: game.id, number: number, step: step, values: list, base: game.version, at: Date.now() };
      /* "none": no trump (null in the API, R12); "": not noted (left out of the request) */
      if (step === "bids" && trump && trump.value) entry.trump = trump.value === "none" ? null : trump.value;
      if (pending.length) entry.base = pending[pending.length - 1].base;
      keep(entry).then(function () {
        App.forgetDraft(f);
        undoAsked = false;
        made++;
        pending.push(entry);
        apply(entry);
        /* With a connection the server's page comes back at once, as without the queue: the next
           step is drawn here only when there is none, or when the server is slow to answer. */
        if (navigator.onLine === false || pending.length > 1) draw();
        else setTimeout(function () { if (pending.indexOf(entry) >= 0 && conflictBox.hidden) draw(); }, 1500);
        send();
      }, function () {  /* IndexedDB unusable after all: the plain form, which works only online */
        delete f.dataset.queued;
        delete f.dataset.sent;
        if (navigator.onLine === false) App.notSent(f);
        else f.submit();
      });
    });
  }

  try {  /* another scorer's save reloaded this page: which saved entries they changed, if any */
    if (sessionStorage.getItem(App.before)) {
      var drawn = JSON.parse(docNode.textContent);
      rare(function (more) { more.told(drawn); }).catch(function () { /* not loaded: told at the next load */ });
    }
  } catch (e) { /* storage off */ }
  try {  /* entries that waited were sent just before this page loaded: say so once */
    if (sessionStorage.getItem(SENT) === game.id) { show(words.all_sent); sessionStorage.removeItem(SENT); }
  } catch (e) { /* storage off */ }
  /* Back online: what waits is sent; a page older than what was sent is drawn again by the server. */
  window.addEventListener("online", function () { clearTimeout(retry); pause = 5000; if (pending.length) send(); else if (made) sent(); });
  /* Back in sight, a page whose list of entries is not the phone's (another tab of this phone added
     to the queue, sent from it or settled a clash meanwhile) is loaded again, to go on from the
     queue as it is: an undo or a choice made here would act on what is no longer there. */
  function keys(list) { return list.map(function (e) { return e.key; }).join(); }
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) saved().then(function (all) { if (keys(all) !== keys(pending)) location.replace(location.pathname); });
  });
  document.querySelectorAll("form.hand[data-queue]").forEach(watch);
  caughtUp();
  if (made) draw();
  saved().then(function (entries) {
    pending = (entries || []).sort(function (a, b) { return a.key - b.key; });
    if (!pending.length) return;
    undoAsked = !!pending[pending.length - 1].undo;  /* asked before the page was loaded again */
    made += pending.length;
    pending.forEach(function (entry) { apply(entry); });
    draw();
    waiting();
    send();
  }).catch(function () {});
})();
