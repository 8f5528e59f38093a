/* What the scorer's queue (static/queue.js) rarely needs, loaded by it the first time it does, so
   that the hand screen's first load stays small (benchmarks/first_load.py): a refused entry's box,
   with both versions side by side and the scorer's choice; a fresh CSRF token for entries refused
   with an expired one; the note of saved entries another phone changed or took back. The service
   worker keeps it with the app's other files: it is on the phone when it has been offline since.
   `Q` is the queue's own: this phone's game and queue, and the steps they are kept with. Each part
   answers with a promise where the queue goes on once it is done; one that fails (no answer from
   the server) is tried again as any entry is. */
window.BlukeQueueRare = function (Q) {
  "use strict";
  var R = window.BlukeRules, App = window.BlukeApp, words = Q.words, game = Q.game, confirmed = Q.confirmed;
  var names = game.players, n = names.length;
  var syncLine = document.getElementById("sync"), conflictBox = document.getElementById("conflict");

  /* An element with its attributes (those not null) and children (text or elements). */
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { if (attrs[k] !== null && attrs[k] !== undefined) node.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) { if (c !== null) node.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return node;
  }

  /* A hand of the server's game document's trump, as the buttons name it. */
  function trumpOf(hand) { return hand.trump || (hand.no_trump ? "none" : ""); }
  /* A step of a hand as the page says it: "Ann 4 · Ben 5 · Cy 3", bids with their trump where a card
     is turned up (R12: "Trump: ♠", "Trump: no trump", "Trump: not noted"), or "nothing recorded". */
  function values(hand, step, list, trump) {
    if (!list) return words.conflict_nothing;
    var said = names.map(function (name, seat) { return name + " " + list[seat]; });
    if (step === "bids" && R.hasTurnUp(n, hand.cards)) said.push(words.trump[trump]);
    return said.join(" · ");
  }
  /* The same step of a hand in the server's game document, and in this phone's (or an entry). */
  function theirValues(hand, step) { return values(hand, step, hand[step], trumpOf(hand)); }
  function myValues(entry) { return values(game.hands[entry.number - 1], entry.step, entry.values, Q.trumpButton(entry)); }

  /* -- an entry the server answered with a refusal (4xx) -------------------------------------------- */
  /* A clash with another phone's save (409) or the server's game (422): the box. A refused CSRF
     token (400, the session that held it gone; the server says so in a header, scorekeeper/errors.py):
     sent again once with a fresh token (renew); refused again, the queue stops, its entries kept
     (stop). An entry refused for itself (another 400: the game's cap on corrections, say) would be
     refused at every try, and the entries behind it with it: the box says the server's sentence and
     lets the scorer drop that entry (keep the server's game). A refusal of the game itself (403,
     404): the queue stops, with the server's sentence. */
  var renewedFor = null;
  function refused(entry, answer) {
    var status = answer.status, error = answer.data.error;
    if (status === 409 || status === 422) return disagree(entry, error, status === 422);
    if (status === 400 && !answer.csrf) return disagree(entry, error, true, true);
    if (status === 400 && renewedFor !== entry) return renew().then(function () { renewedFor = entry; Q.send(); });
    if (status !== 400) { stop(R.say(words, "refused", { message: error.message })); return; }
    /* refused again with a fresh token: not "nothing was saved", as the server says of a form */
    stop(App.say(words.kept, { n: Q.pending.length }));
    syncLine.appendChild(document.createTextNode(" "));
    syncLine.appendChild(el("a", { href: location.pathname }, [words.reload]));
  }
  /* The queue stops until the page is loaded again: its entries stay kept on this phone, and the
     page follows the other scorers' saves again (a refused entry's box only pauses it: the scorer's
     choice sends on, and a reload would take the box away). */
  function stop(text) {
    delete document.body.dataset.sending;
    Q.show(text, true);
  }

  /* -- a clash: both versions side by side, the scorer chooses -------------------------------------- */
  /* The hand an entry writes is on the server as this phone last had it confirmed, at the version
     the entry was made on: another phone that wrote meanwhile changed other hands only, so the entry
     clashes with nothing of theirs. A page drawn since (reloaded) already holds their changes: what
     the hand was then is not known here, and the scorer is asked. */
  function untouched(entry, server) {
    var mine = confirmed.hands[entry.number - 1], theirs = server.hands[entry.number - 1];
    return confirmed.version === entry.base && String(mine.bids) === String(theirs.bids)
      && String(mine.tricks) === String(theirs.tricks) && mine.trump === trumpOf(theirs);
  }
  /* The server's hand holds what `entry` asks: the same values, and for bids the same trump unless
     the entry left it out (kept). */
  function holds(entry, server) {
    var hand = server.hands[entry.number - 1] || {};
    return String(hand[entry.step]) === String(entry.values)
      && (entry.step === "tricks" || entry.trump === undefined || Q.trumpButton(entry) === trumpOf(hand));
  }
  /* The server's version of a refused entry kept: the steps drawn here go on from it. */
  function takeServers(entry, server) {
    var hand = server.hands[entry.number - 1];
    [game, confirmed].forEach(function (g) {
      g.hands[entry.number - 1][entry.step] = hand[entry.step];
      if (entry.step === "bids") g.hands[entry.number - 1].trump = trumpOf(hand);
    });
    Q.follow(server.version, true);
  }
  /* A clash of versions (409) may be settled either way. An entry the server's game refuses on a rule
     (422: its bids undone there, say) would be refused again: it is shown, only the server's game
     can be kept, and the entry stays tapped for when its step comes up (tappedLater). So is an entry
     refused for itself (`other`, a 400 not about the CSRF token), under the server's sentence. */
  function disagree(entry, error, refused, other) {
    return Q.request("GET", "").then(function (answer) {
      /* Stored already (sent before, its answer lost, or saved alike on another phone): a stale version
         is refused all the same (API.md). Its step is then known here as the server holds it (with a
         trump another phone noted since): the entries behind it clash only with what else changed. */
      noteOthers(answer.data);  /* whatever else another phone changed, told even where this entry stands */
      if (!refused && holds(entry, answer.data)) {
        var held = answer.data.hands[entry.number - 1], known = confirmed.hands[entry.number - 1];
        known[entry.step] = held[entry.step];
        if (entry.step === "bids") known.trump = trumpOf(held);
        return Q.took(entry, answer.data.version);
      }
      if (!refused && untouched(entry, answer.data)) return rebase(entry.base, answer.data);
      var theirs = answer.data.hands[entry.number - 1] || {};
      var step = entry.step === "bids" ? words.step_bids : words.step_tricks;
      var keepServer = el("button", { type: "button", "class": "button" }, [words.keep_server]);
      var usePhone = el("button", { type: "button", "class": "button primary" }, [words.use_phone]);
      var title = other ? R.say(words, "refused", { message: error.message }) : words.conflict_title;
      conflictBox.textContent = "";
      [el("h2", { id: "conflict-h" }, [title]), other ? null : el("p", { "class": "muted" }, [refused ? error.message : words.conflict_choose]),
       refused && !other ? el("p", {}, [words.conflict_rule]) : null,
       el("p", {}, [R.say(words, "conflict_hand", { number: entry.number, step: step })]),
       el("dl", {}, [el("dt", {}, [words.conflict_server]), el("dd", { "class": "theirs" }, [theirValues(theirs, entry.step)]),
                     el("dt", {}, [words.conflict_phone]), el("dd", { "class": "mine" }, [myValues(entry)])]),
       el("div", { "class": "dock-buttons" }, [keepServer, refused ? null : usePhone])].forEach(function (c) { if (c) conflictBox.appendChild(c); });
      conflictBox.hidden = false;
      Q.show(title, true);  /* the server's sentence is in the box, where the choice is */
      /* the form whose save this was, still on screen, no longer says "Saving the bids…" but what
         to do, by the thumb; the note that another scorer saved (static/app.js) has had its say */
      var saving = document.querySelector("form.hand[data-queued] .dock .status");
      if (saving) { saving.textContent = refused || other ? title : words.conflict_choose; saving.className = "status bad"; }
      var elsewhere = document.getElementById("changed-elsewhere");
      if (elsewhere) elsewhere.hidden = true;
      conflictBox.scrollIntoView({ block: "start" });
      conflictBox.focus({ preventScroll: true });  /* a screen reader reads the choice first */
      /* The choice is for this entry only. The entries behind it were made on the same old game:
         those whose place on the server is still empty (or holds the same) go on from the
         server's game; one whose place the other phone filled differently comes up in turn. */
      function chosen(usePhones) {
        var from = entry.base, server = answer.data, pending = Q.pending;
        if (refused) tappedLater(entry, server.version);
        return Q.store("readwrite", function (s) {
          pending.forEach(function (e, i) {
            var clear = !(server.hands[e.number - 1] || {})[e.step] || holds(e, server);
            if (i === 0 ? usePhones : e.base === from && clear) { e.base = server.version; s.put(e); }
          });
          if (!usePhones) s.delete(entry.key);
        }).then(function () {
          conflictBox.hidden = true;
          if (!pending.length || (pending.length === 1 && !usePhones)) { location.replace(location.pathname); return; }
          if (!usePhones) takeServers(pending.shift(), server);
          Q.send();
        });
      }
      keepServer.addEventListener("click", function () { chosen(false); });
      usePhone.addEventListener("click", function () { chosen(true); });
    });
  }
  /* A refused entry leaves the queue, but not the phone: its taps wait in the draft of its step's
     form (static/app.js, drafts), and come back when that step comes up here again. */
  function tappedLater(entry, version) {
    var data = { "#at": version }, kind = entry.step === "bids" ? "bid_" : "tricks_";
    entry.values.forEach(function (v, seat) { data[kind + seat] = String(v); });
    if (entry.step === "bids") data.trump = Q.trumpButton(entry);
    var action = document.getElementById("proto-" + entry.step).content.querySelector("form").getAttribute("action");
    App.put("bluke-draft:" + action.replace("{number}", entry.number), JSON.stringify(data));  /* storage off: the box showed it */
  }
  /* Another phone changed other hands only (a correction of hand 1 while this phone entered hand 2):
     the entries made on the game at `from` whose hands it left as they were go on from the
     server's game, without a question; the steps drawn here count with its other hands. */
  function rebase(from, server) {
    var pending = Q.pending;
    return Q.store("readwrite", function (s) {
      pending.forEach(function (e) { if (e.base === from && untouched(e, server)) { e.base = server.version; s.put(e); } });
    }).then(function () {
      server.hands.forEach(function (theirs, i) {
        if (pending.some(function (e) { return e.number === i + 1; })) return;  /* as this phone had it confirmed */
        [game, confirmed].forEach(function (g) {
          var hand = g.hands[i];
          hand.bids = theirs.bids; hand.tricks = theirs.tricks; hand.trump = trumpOf(theirs);
        });
      });
      Q.follow(server.version);
      Q.send();
    });
  }

  /* A page or words not come in 15 s are taken for unanswered (a connection that hangs): the entry
     waits for its next try, as without an answer, instead of keeping the queue "sending" for good. */
  function timed(url) {
    var stop = window.AbortController && new AbortController();
    if (stop) setTimeout(function () { stop.abort(); }, 15000);
    return fetch(url, { credentials: "same-origin", cache: "no-store", signal: stop && stop.signal });
  }

  /* -- a refused CSRF token (400: the session that held it expired, or the browser dropped it while
        the page was kept): the page itself, asked again, carries a fresh one and sets the session
        that holds it (scorekeeper/errors.py answers every CSRF failure 400, like a malformed body).
        The queue's requests carry the page's token (static/queue.js, request). */
  function renew() {
    return timed(location.pathname).then(function (page) {
      if (!page.ok) throw page;
      return page.text();
    }).then(function (html) {
      var input = new DOMParser().parseFromString(html, "text/html").querySelector("input[name=csrf_token]");
      if (!input) throw html;
      document.querySelectorAll("input[name=csrf_token]").forEach(function (field) { field.value = input.value; });
    });
  }

  /* -- entries already saved that another scorer changed or took back: told once, when their save
        reloaded this page (static/app.js keeps the game document as it was, at App.before; `now`
        is the one this page was drawn with), or when a clash showed the server's game (noteOthers).
        A place they filled shows on the page as it is and needs no word. ------------------------ */
  function changes(before, now, trump) {
    var lines = [];
    now.hands.forEach(function (hand, i) {
      var was = before.hands[i];
      ["bids", "tricks"].forEach(function (step) {
        if (!was || !was[step]) return;
        var then = values(was, step, was[step], was.trump), there = values(hand, step, hand[step], trump(hand));
        if (then === there) return;
        var key = (hand[step] ? "changed_" : "taken_back_") + step;
        lines.push(App.say(words[key], { number: hand.number, was: then, now: there }));
      });
    });
    return lines;
  }
  function tell(lines) {
    var note = document.getElementById("others-changed");
    if (!note || !lines.length) return false;
    note.textContent = "";
    lines.forEach(function (line, i) { if (i) note.appendChild(el("br")); note.appendChild(document.createTextNode(line)); });
    note.hidden = false;
    return true;
  }
  function told(now) {
    var before = null;
    try { before = JSON.parse(sessionStorage.getItem(App.before) || "null"); sessionStorage.removeItem(App.before); } catch (e) { /* storage off */ }
    if (!before) return;
    var lines = before.said;  /* told at a clash already, and kept for this page */
    if (!lines && before.id === now.id && now.version > before.version) lines = changes(before, now, function (hand) { return hand.trump; });
    /* first in the page: in sight, not pushed above it by the browser keeping the hand form in place */
    if (lines && tell(lines)) requestAnimationFrame(function () { window.scrollTo(0, 0); });
  }
  /* The server's game, fetched at a clash, holds another phone's changes to entries this phone had
     saved: told now, and kept for the page the queue loads once everything is sent. */
  function noteOthers(server) {
    var lines = changes(confirmed, server, trumpOf);
    if (!tell(lines)) return;
    try { sessionStorage.setItem(App.before, JSON.stringify({ said: lines })); } catch (e) { /* storage off */ }
  }

  /* Its sentences are not in the page, which the scorer loads at every save (benchmarks/first_load.py):
     asked for in the page's language before the first part that writes one. Each part runs once the
     server has answered, so they come with it; not come (the connection lost just then), the part
     fails as without an answer, and they are asked for again at its next try. */
  var asked = null;
  function worded(part) {
    return function () {
      var args = arguments;
      asked = asked || timed("/offline/words?lang=" + encodeURIComponent(document.documentElement.lang)).then(function (answer) {
        if (!answer.ok) throw answer;
        return answer.json();
      }).then(function (more) {
        Object.keys(more).forEach(function (key) { words[key] = more[key]; });
      }).catch(function (error) { asked = null; throw error; });
      return asked.then(function () { return part.apply(null, args); });
    };
  }
  return { refused: worded(refused), told: worded(told) };
};
