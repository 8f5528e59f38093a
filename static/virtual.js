/* Virtual tables: follow the table as it moves, at a human pace. The pages work without it.

   - Polls the table's stamp (every second; every 5 s while the tab is hidden, faster while bots think).
   - When the table moved, fetches the moves since the last one this screen showed and replays
     them on the table card by card: each card ~¾ s apart, a finished trick stays with its winner
     marked before it is gathered, and the last trick of a hand stays longer. Then the fresh
     partial is swapped in. The last move shown is kept per tab, so a reload replays what it missed
     (after a long absence, the latest trick only).
   - Your turn: the title changes, and (if chosen in Settings) the phone vibrates or beeps.
   - Posts the forms in the background; explains dimmed cards; "tap to pick, tap again to play". */
(function () {
  "use strict";
  var PACE = { bid: 600, card: 750, own: 250, trick: 1200, hand: 2600 };
  var WAIT = 10000;  // ms for an answer (a move's: the server's own wait for the bots is a second or two)
  var busy = false;       // a form post is on its way
  var unsure = false;     // a move whose answer was lost: the screen waits for the table's own
  var syncing = null;     // while the screen catches up with the table: the promise of its end
  var toastTimer = null;
  var pollTimer = null;
  var baseTitle = document.title;
  var wasMyTurn = false;  // the screen shown was the player's turn
  var alerted = false;    // the phone has told the player it is their turn (vibration, sound, notification)
  var peeked = null;      // the table's stamp last fetched for a tab out of sight
  var say = window.bluke.say;  // static/app.js: the page's words, in its language

  function root() { return document.getElementById("vt"); }
  function attr(name) { var r = root(); return r ? r.getAttribute(name) : null; }
  function seqKey() { return "vt-seq:" + attr("data-table"); }
  function seen() {
    var stored = NaN;
    try { stored = parseInt(sessionStorage.getItem(seqKey()) || "", 10); } catch (e) { /* storage off */ }
    var page = parseInt(attr("data-seq") || "0", 10);
    return isNaN(stored) ? page : Math.min(stored, page);
  }
  function remember(seq) { try { sessionStorage.setItem(seqKey(), String(seq)); } catch (e) { /* private mode */ } }
  function wait(ms) { return new Promise(function (done) { setTimeout(done, ms); }); }
  // An answer not come in WAIT is taken for lost (a connection that hangs): the screen goes on
  // following the table instead of waiting for it for good.
  function timed(url, options) {
    var stop = window.AbortController && new AbortController();
    if (stop) setTimeout(function () { stop.abort(); }, WAIT);
    options.signal = stop && stop.signal;
    options.credentials = "same-origin";
    return fetch(url, options);
  }

  // A message over the screen for 4 s; ``untilBack``: until the table answers again (no connection).
  var waitingForTable = false;
  function toast(text, untilBack) {
    var box = document.getElementById("vt-toast");
    if (!box) return;
    box.textContent = text;
    box.hidden = false;
    clearTimeout(toastTimer);
    waitingForTable = !!untilBack;
    if (!untilBack) toastTimer = setTimeout(function () { box.hidden = true; }, 4000);
  }
  function tableAnswered() {
    var box = document.getElementById("vt-toast");
    if (waitingForTable && box) box.hidden = true;
    waitingForTable = false;
  }

  // -- card faces, as templates/virtual/_card.html draws them: a picture named in words ("queen of
  // spades"), the name in the reader's language coming with the moves (their `labels`) ---------------
  var PIPS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  function face(code, label) {
    var span = document.createElement("span");
    var rank = code.charAt(0) === "T" ? "10" : say("rank_" + code.charAt(0)) || code.charAt(0);
    var pip = PIPS[code.charAt(1)];
    var color = code.charAt(1) === "H" || code.charAt(1) === "D" ? "red" : "black";
    if (code === "HB" || code === "LB") {
      rank = say(code === "HB" ? "hi" : "lo"); pip = code === "HB" ? "\u2605" : "\u2606"; color = "bluke";
    }
    span.className = "vt-face vt-" + color + " vt-mini";
    span.setAttribute("data-card", code);
    span.setAttribute("role", "img");
    span.setAttribute("aria-label", label || rank + pip);
    var b = document.createElement("b"); b.textContent = rank; b.setAttribute("aria-hidden", "true");
    var i = document.createElement("i"); i.textContent = pip; i.setAttribute("aria-hidden", "true");
    span.appendChild(b); span.appendChild(i);
    return span;
  }

  // -- replaying moves on the table -----------------------------------------------------------------
  function spot(seat) { return document.querySelector("#vt .vt-spot[data-seat='" + seat + "']"); }
  function nameOf(seat) { var s = spot(seat); return s ? s.getAttribute("data-name") : say("seat", { seat: seat + 1 }); }
  function center(text) { var c = document.querySelector("#vt [data-center]"); if (c) c.textContent = text; }
  function gather() {
    document.querySelectorAll("#vt .vt-spot").forEach(function (s) {
      s.classList.remove("vt-won", "vt-acting");
      var slot = s.querySelector("[data-slot]"); if (slot) slot.textContent = "";
    });
  }
  function newHand(hand) {
    var table = document.querySelector("#vt .vt-table");
    if (!table || table.getAttribute("data-hand") === String(hand)) return;
    table.setAttribute("data-hand", String(hand));
    gather();
    document.querySelectorAll("#vt [data-bid]").forEach(function (b) { b.textContent = ""; });
    center(say("hand", { number: hand }));
  }
  function acting(seat) {
    document.querySelectorAll("#vt .vt-spot").forEach(function (s) { s.classList.remove("vt-acting"); });
    var s = spot(seat); if (s) s.classList.add("vt-acting");
  }

  function show(move, me, labels) {
    var s = spot(move.seat);
    var own = move.seat === me;
    var r = root();
    // Played from this seat's other phone: no longer "your turn" while the others' moves replay.
    if (own && r && r.classList.contains("vt-myturn")) sent(move.card);
    // The line under the table told of the moment before these moves: it waits for the screen after them.
    var status = !own && r && r.querySelector(".vt-status");
    if (status) status.textContent = say("moving");
    newHand(move.hand);
    if (!s) return wait(0);
    acting(move.seat);
    if (move.bid !== undefined) {
      var b = s.querySelector("[data-bid]"); if (b) b.textContent = say("bid_chip", { bid: move.bid });
      center(say("bid_by", { name: nameOf(move.seat), bid: move.bid }));
      return wait(own ? PACE.own : PACE.bid);
    }
    var slot = s.querySelector("[data-slot]");
    if (slot) { slot.textContent = ""; slot.appendChild(face(move.card, labels[move.card])); }
    if (!own) center(say("plays", { name: nameOf(move.seat), card: labels[move.card] }));  // heard, not only seen
    if (move.won_by === undefined || move.won_by === null) return wait(own ? PACE.own : PACE.card);
    return wait(PACE.card).then(function () {
      var w = spot(move.won_by);
      document.querySelectorAll("#vt .vt-spot").forEach(function (x) { x.classList.remove("vt-acting"); });
      if (w) w.classList.add("vt-won");
      var key = (move.won_by === me ? "you_take" : "takes") + (move.hand_over ? "_last" : "");
      center(say(key, { name: nameOf(move.won_by), number: move.hand }));
      // More cards take longer to read: the trick stays 1.2 s plus 0.15 s a card (3 s at most).
      var seats = document.querySelectorAll("#vt .vt-spot").length;
      var read = Math.min(3000, PACE.trick + 150 * seats);
      return wait(move.hand_over ? Math.max(PACE.hand, read + 800) : read);
    }).then(gather);
  }

  // A screen that missed more than about two tricks (a phone that slept through a hand) replays the
  // latest trick and what followed it only: the table is not kept waiting a minute for it.
  function recent(moves) {
    var seats = document.querySelectorAll("#vt .vt-spot").length || 1, ends = [];
    if (moves.length <= 2 * seats) return moves;
    moves.forEach(function (m, i) { if (m.won_by !== undefined && m.won_by !== null) ends.push(i); });
    var last = ends.length ? ends[ends.length - 1] : -1;
    if (last < moves.length - 1) return moves.slice(last + 1);  // the trick or the bids under way
    return moves.slice(ends.length > 1 ? ends[ends.length - 2] + 1 : 0);  // the trick just taken
  }
  function replay(moves, me, labels) {
    if (!document.querySelector("#vt .vt-ring") || document.hidden) return Promise.resolve();
    return recent(moves).reduce(function (chain, move) {
      return chain.then(function () { return show(move, me, labels || {}); });
    }, Promise.resolve());
  }

  // -- keeping up with the table ------------------------------------------------------------------
  function screenOf(html) {  // the #vt of a partial answer, not yet on the page
    var holder = document.createElement("div");
    holder.innerHTML = html;
    return holder.querySelector("#vt");
  }
  function seqOf(screen) { return parseInt(screen.getAttribute("data-seq") || "0", 10); }

  // A live region that stays on the page: the status of a new screen is read out from here (one
  // inserted already filled is not announced by screen readers).
  var announcer = document.createElement("p");
  announcer.className = "sr";
  announcer.setAttribute("role", "status");
  document.body.appendChild(announcer);
  // What had the keyboard's focus, to find on the new screen: by id, or a choice by name and value.
  function focusKey(el) {
    if (el.id) return "#" + CSS.escape(el.id);
    return el.name ? "[name='" + CSS.escape(el.name) + "'][value='" + CSS.escape(el.value) + "']" : null;
  }
  function swap(fresh) {
    var old = root();
    if (!fresh || !old) return false;
    // Keep the "last trick" / "result" / links / settings the player opened or closed.
    old.querySelectorAll("details[id]").forEach(function (d) {
      var twin = fresh.querySelector("details[id='" + d.id + "']");
      if (twin) twin.open = d.open;
    });
    var active = document.activeElement, focused = old.contains(active) || active === document.body;
    var key = old.contains(active) ? focusKey(active) : null;
    var before = old.querySelector(".vt-status"), after = fresh.querySelector(".vt-status");
    fresh.classList.add("vt-js");
    old.replaceWith(fresh);
    if (after && (!before || before.textContent !== after.textContent)) announcer.textContent = after.textContent;
    // Focus stays where it was, or, the player's turn come, goes to the first choice: a keyboard
    // need not Tab back in every turn.
    var twin = (key && fresh.querySelector(key)) ||
      (focused && fresh.classList.contains("vt-myturn") && fresh.querySelector(".vt-bid button, .vt-card.vt-legal"));
    if (twin) twin.focus({ preventScroll: true });
    remember(seqOf(fresh));
    setup();
    return true;
  }

  // The moves since ``from`` one by one, then the screen of the state they lead to. Moves made
  // meanwhile (another phone, the bots) are replayed before that screen too, not skipped.
  function catchUp(from, rounds) {
    var moves = attr("data-moves-url"), partial = attr("data-partial-url");
    return timed(moves + "?since=" + from, { cache: "no-store" })
      .then(function (res) { return res.ok ? res.json() : null; })
      .then(function (data) {
        if (!data) return null;
        return replay(data.moves, data.seat, data.labels).then(function () {
          remember(data.seq);
          return timed(partial, { headers: { "X-Partial": "1" }, cache: "no-store" });
        }).then(function (res) { return res.ok ? res.text() : null; })
          .then(function (html) {
            var fresh = html && screenOf(html);
            if (!fresh) return;
            if (seqOf(fresh) > data.seq && rounds > 0) return catchUp(data.seq, rounds - 1);
            swap(fresh);
          });
      });
  }

  function sync() {
    if (!attr("data-moves-url") || syncing) return Promise.resolve();
    syncing = catchUp(seen(), 3)
      .catch(function () { /* offline for a moment: the next poll tries again */ })
      .then(function () { syncing = null; });
    return syncing;
  }

  // A tab out of sight keeps its screen, so that the moves are replayed one by one when it is looked
  // at again; "your turn" reaches it all the same, from the table's screen fetched, not shown.
  function peek(stamp) {
    if (stamp === peeked) return null;
    return timed(attr("data-partial-url"), { headers: { "X-Partial": "1" }, cache: "no-store" })
      .then(function (res) { return res.ok ? res.text() : null; })
      .then(function (html) {
        var fresh = html && screenOf(html);
        if (!fresh || !document.hidden) return;
        peeked = stamp;
        turn(fresh);
      });
  }

  // This link no longer opens the table (the host gave the seat a new one): the page says so.
  function gone() { location.reload(); return null; }

  var misses = 0;  // polls in a row the table did not answer
  function poll() {
    clearTimeout(pollTimer);
    var r = root();
    if (!r) return;
    var next = document.hidden ? 5000 : (r.hasAttribute("data-thinking") ? 500 : 1000);
    pollTimer = setTimeout(poll, next);
    if (busy || syncing) return;
    timed(r.getAttribute("data-version-url"), { cache: "no-store" })
      .then(function (res) { misses = 0; if (!unsure) tableAnswered(); return res.status === 403 ? gone() : res.ok ? res.json() : null; })
      .then(function (data) {
        if (!data || busy || syncing || (!unsure && String(data.stamp) === attr("data-stamp"))) return;
        if (document.hidden && !unsure) return peek(String(data.stamp));
        return sync().then(function () {  // a screen drawn from the table: the lost move shows there, or the turn again
          if (unsure && !root().classList.contains("vt-busy")) { unsure = false; tableAnswered(); }
        });
      })
      .catch(function () {  // offline: for a moment, or said until the table answers again
        if (++misses >= 2 && !unsure && !waitingForTable) toast(say("lost"), true);
      });
  }

  // -- your turn -------------------------------------------------------------------------------------
  var audio = null;
  function beep() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      var osc = audio.createOscillator(), gain = audio.createGain();
      osc.frequency.value = 880; gain.gain.value = 0.08;
      osc.connect(gain); gain.connect(audio.destination);
      osc.start(); osc.stop(audio.currentTime + 0.18);
    } catch (e) { /* no sound on this phone */ }
  }
  function alertOn(name) { try { return localStorage.getItem("vt-alert-" + name) === "1"; } catch (e) { return false; } }
  function setAlert(name, on) { try { localStorage.setItem("vt-alert-" + name, on ? "1" : "0"); } catch (e) { /* storage off */ } }

  // ``screen``: the table's screen fetched for a tab out of sight, not shown (``peek``); else the one shown.
  function turn(screen) {
    var r = screen || root();
    var mine = !!(r && r.classList.contains("vt-myturn"));
    document.title = mine ? say("your_turn_title", { title: baseTitle }) : baseTitle;
    if (mine && !wasMyTurn && !screen) {
      // The choices in sight (a short screen, large text: the round table above pushed them below it).
      var choices = r.querySelector(".vt-bid, .vt-hand");
      if (choices) window.bluke.glide(choices);
    }
    if (mine && !alerted) {
      if (alertOn("vibrate") && navigator.vibrate) navigator.vibrate([120, 80, 120]);
      if (alertOn("sound")) beep();
      if (alertOn("notify") && document.hidden && window.Notification && Notification.permission === "granted") {
        try {
          var note = new Notification(document.title, { body: (r.querySelector(".vt-status") || {}).textContent, tag: "bluke-turn" });
          note.onclick = function () { window.focus(); note.close(); };
        } catch (e) { /* this phone shows notifications only from a service worker */ }
      }
    }
    alerted = mine;
    if (!screen) wasMyTurn = mine;
  }

  function setup() {
    var r = root();
    if (!r) return;
    r.classList.add("vt-js");
    var alerts = r.querySelector("[data-vt-alerts]");
    if (alerts) {
      alerts.hidden = false;
      var notify = alerts.querySelector("[data-notify]");
      if (notify) notify.hidden = !window.Notification;
      alerts.querySelectorAll("input[data-alert]").forEach(function (box) {
        box.checked = alertOn(box.getAttribute("data-alert"));
      });
    }
    turn();
  }

  document.addEventListener("change", function (event) {
    var box = event.target;
    if (!box.matches || !box.matches("input[data-alert]")) return;
    setAlert(box.getAttribute("data-alert"), box.checked);
    if (box.checked && box.getAttribute("data-alert") === "sound") beep();  // a tap lets the page play sound
    if (box.checked && box.getAttribute("data-alert") === "notify") {  // the phone asks the player once
      Notification.requestPermission().then(function (answer) {
        if (answer === "granted") return;
        box.checked = false;
        setAlert("notify", false);
        toast(say("no_notify"));
      });
    }
  });

  var pressed = null;  // the button last tapped: the form's submitter where the browser names none (Safari < 15.4)
  document.addEventListener("click", function (event) {
    pressed = event.target.closest ? event.target.closest("button") : null;
  }, true);
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#vt button[data-reason]");
    if (button) {
      event.preventDefault();
      toast(button.getAttribute("data-reason"));
      return;
    }
    var pick = event.target.closest && event.target.closest("#vt .vt-picking button[name='pick']");
    if (pick) {  // first tap picks the card; the second (now name="card") plays it
      event.preventDefault();
      pick.form.querySelectorAll("button.vt-picked").forEach(function (b) {
        b.classList.remove("vt-picked"); b.name = "pick"; b.removeAttribute("aria-pressed");
      });
      pick.classList.add("vt-picked"); pick.name = "card"; pick.setAttribute("aria-pressed", "true");
    }
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches("#vt form[data-vt-action]")) return;
    event.preventDefault();
    var move = form.hasAttribute("data-vt-replay");
    // A second tap while the first is on its way plays nothing, nor does a move tapped on a screen
    // being replayed. A tap on "Your turn" while the screen refreshes (someone joined) waits for it.
    if (busy || unsure || (syncing && move && !root().classList.contains("vt-myturn"))) return;
    busy = true;
    var data = new FormData(form);
    var by = event.submitter || (pressed && pressed.form === form ? pressed : null);
    if (by && by.name) data.append(by.name, by.value);
    root().classList.add("vt-busy");
    // An answer that never comes is a lost one: the screen says so and follows the table again (a
    // move sent twice is played once).
    (syncing || Promise.resolve()).then(function () {
      return timed(form.action, { method: "POST", body: data, headers: { "X-Partial": "1" } });
    }).then(function (res) {
      return res.text().then(function (html) {
        busy = false;
        if (res.status === 403) return gone();
        if (res.ok && move) { sent(by && by.name === "card" && by.value); return sync(); }  // our move, then the bots' answers
        if (swap(screenOf(html))) return;
        // A gateway's error or timeout is no answer from the table: the move may have been played.
        if (res.status >= 500 || res.status === 408) throw res;
        toast(say("play_failed"));
      });
    }).catch(function () {  // it may have arrived: no tap until the next poll has drawn the table
      unsure = move;
      toast(say("offline"), true);
    }).then(function () {
      busy = false;
      var r = root();
      if (r && !unsure) r.classList.remove("vt-busy");
    });
  });

  // The table took our move: say so at once, and take the card from the hand, while the others'
  // moves are replayed (the screen of the new state comes after them).
  function sent(code) {  // on the screen now shown: the one tapped, or the refresh it waited for
    var r = root();
    r.classList.remove("vt-myturn");
    turn();  // not our turn while the others' moves replay: the next one alerts again
    var status = r.querySelector(".vt-status");
    if (status) status.textContent = say("sent");
    var card = code && r.querySelector(".vt-hand button[value='" + code + "']");
    if (card) card.remove();
    r.querySelectorAll(".vt-bid").forEach(function (f) { f.hidden = true; });
    r.querySelectorAll(".vt-hand").forEach(function (f) { f.classList.add("vt-sent"); });  // no tap plays into a trick not shown yet
  }

  // "New table" form: Enter in a name moves on to the next name instead of submitting.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || !event.target.matches(".vt-rows input")) return;
    var inputs = Array.prototype.slice.call(document.querySelectorAll(".vt-rows input"));
    var next = inputs[inputs.indexOf(event.target) + 1];
    event.preventDefault();
    if (next) next.focus(); else event.target.blur();
  });

  // "New table" form: a seat turned from a bot to a person loses the bot's name ("Bot 2") for theirs.
  document.addEventListener("change", function (event) {
    var select = event.target, row = select.closest && select.closest(".vt-rows li");
    if (!row || select.tagName !== "SELECT" || select.value) return;
    var input = row.querySelector("input"), seat = Array.prototype.indexOf.call(row.parentNode.children, row) + 1;
    if (input.value === say("bot_name", { n: seat })) { input.value = ""; input.focus(); }
  });

  // Host page: a tap on a link selects it, ready to copy.
  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("input.vt-url")) event.target.select();
  });

  document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
  if (root()) {
    setup();
    if (seen() < parseInt(attr("data-seq") || "0", 10)) sync();  // a reload: show what this tab missed
    else remember(parseInt(attr("data-seq") || "0", 10));
    poll();
  }
})();
