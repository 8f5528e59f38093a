/* The offline page lists the games whose entries wait on this phone (static/queue.js keeps them in
   IndexedDB), each with a link to its hand screen, which the service worker keeps: the scorer sees
   nothing was lost, and the entries go to the server from that screen once the connection is back.
   The players' names come from the kept copy of that screen. The home page notes them under their
   games, whose screens send them. Every word comes from the page. */
(function () {
  "use strict";
  /* The offline page: the page asked for comes back once the server answers, tried when the phone
     says it is online and every 5 s while it is (a Wi-Fi without internet, a server restarting); a
     check not answered in 10 s (a connection that hangs) counts as unanswered. */
  if (document.body.dataset.reloadOnline) {
    var timer = null;
    var check = function () {
      clearTimeout(timer);
      if (navigator.onLine === false) return;  /* the "online" event checks again */
      var stop = window.AbortController && new AbortController();
      if (stop) setTimeout(function () { stop.abort(); }, 10000);
      fetch(location.href, { method: "HEAD", cache: "no-store", credentials: "same-origin", signal: stop && stop.signal })
        .then(function (response) { if (response.status < 500) location.reload(); else throw response; })
        .catch(function () { timer = setTimeout(check, 5000); });
    };
    window.addEventListener("online", check);
    timer = setTimeout(check, 5000);
  }
  var box = document.getElementById("waiting"), home = document.querySelector("[data-waiting]");
  if (!(box || home) || !window.indexedDB) return;
  var request = indexedDB.open("bluke-scorer", 1);
  request.onupgradeneeded = function () { request.transaction.abort(); };  /* no queue on this phone */
  request.onsuccess = function () {
    var all = request.result.transaction("entries").objectStore("entries").getAll();
    all.onsuccess = function () {
      var count = {};
      all.result.forEach(function (entry) { count[entry.game] = (count[entry.game] || 0) + 1; });
      Object.keys(count).forEach(function (id) { (box ? show : note)(id, count[id]); });
    };
  };
  function note(id, n) {
    var item = home.querySelector("[data-game='" + id + "']"), line = document.createElement("span");
    if (!item) return;
    line.className = "gwaiting";
    line.textContent = home.dataset.waiting.replace("{n}", n);
    item.querySelector(".game-link").appendChild(line);
    var ask = item.querySelector(".forget-ask p"), warning = document.createElement("p");
    warning.className = "small alert unsent";
    warning.textContent = home.dataset.unsent.replace("{n}", n);
    ask.parentNode.insertBefore(warning, ask);
  }
  function show(id, n) {
    var url = box.dataset.game.replace("GAME", encodeURIComponent(id)), link = document.createElement("a");
    var item = document.createElement("li");
    link.className = "game-link";
    link.href = url;
    item.className = "game-item";
    item.appendChild(link);
    box.querySelector("ul").appendChild(item);
    box.hidden = false;
    var line = function (names) { link.textContent = box.dataset.line.replace("{names}", names).replace("{count}", n); };
    line(id);
    if (!window.caches) return;
    caches.match(url).then(function (kept) { return kept && kept.text(); }).then(function (html) {
      var doc = html && new DOMParser().parseFromString(html, "text/html").getElementById("offline-game");
      if (doc) line(JSON.parse(doc.textContent).players.join(" · "));
    }).catch(function () { /* the id stays */ });
  }
})();
