/* Bluke Scorekeeper's service worker.
   The app shell (versioned static files) comes from the cache; pages come from the network, and
   the last copy of each page the phone opened is kept for when there is no connection, so the
   scorer's hand screen opens and reloads offline. Writes are never cached or replayed here: the
   page keeps its own queue of entries (static/queue.js) and sends them when the connection returns.
   Answers marked no-store (share links with tokens, the JSON API, virtual seats) are never kept. */
"use strict";
var SHELL = {{ shell|tojson }}, CACHE = {{ cache|tojson }}, PAGES = "bluke-pages", OFFLINE = {{ offline|tojson }};

self.addEventListener("install", function (event) {
  /* Every file must be the version its address names: during a rolling deploy an older server may
     answer with its own; the install then fails, and is tried again at the next visit. */
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return Promise.all(SHELL.concat([OFFLINE]).map(function (url) {
      return fetch(url, { cache: "no-cache" }).then(function (response) {
        if (!keepable(response) || !genuine(url, response)) throw new Error("not this release's " + url);
        return cache.put(url, response);
      });
    }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (key) { return key !== CACHE && key !== PAGES; })
      .map(function (key) { return caches.delete(key); }));
  }).then(function () { return self.clients.claim(); }));
});

function keepable(response) {
  return response.ok && !response.redirected && response.type === "basic"
    && !/no-store/.test(response.headers.get("Cache-Control") || "");
}

/* A static file is the version its address names (?v=, scorekeeper/assets.py sends X-Bluke-Version). */
function genuine(url, response) {
  var asked = new URL(url, self.location).searchParams.get("v");
  return !asked || response.headers.get("X-Bluke-Version") === asked;
}

function fromStatic(request) {
  return caches.match(request).then(function (hit) {
    return hit || fetch(request).then(function (response) {
      if (keepable(response) && genuine(request.url, response)) {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
      }
      return response;
    }, function (error) {
      // Offline, a page kept from before an update asks for the files it was drawn with, which the
      // update replaced: the same files in their new version serve it (unstyled and without its
      // queue of entries otherwise).
      return caches.match(request, { ignoreSearch: true }).then(function (other) { if (other) return other; throw error; });
    });
  });
}

// The offline page in the language of the last page opened: a player who changed language
// (or whose phone did) reads "no connection" in the new one.
function offlineIn(language) {
  return caches.open(CACHE).then(function (cache) {
    return cache.match(OFFLINE).then(function (kept) {
      if (kept && kept.headers.get("Content-Language") === language) return;
      return fetch(OFFLINE).then(function (response) { if (keepable(response)) return cache.put(OFFLINE, response); });
    });
  }).catch(function () {});
}

// A copy of a page's answer, where it may be kept, to show when there is no connection; an HTML
// page without its notes of the moment ("Undone: the bids of hand 3…", templates/_flash.html),
// which it would otherwise say again each time it opens offline. Such a page is read as text, so
// its copy keeps the answer's headers but those of the bytes sent (their length and compression).
function keepPage(url, response) {
  if (!keepable(response)) return Promise.resolve();
  var copy = response.clone();
  var ready = /^text\/html/.test(response.headers.get("Content-Type") || "") ? copy.text().then(function (html) {
    var headers = new Headers(response.headers);
    headers.delete("Content-Length");
    headers.delete("Content-Encoding");
    return new Response(html.replace(/<div class="notes" role="status">[\s\S]*?<\/div>/, ""), { status: response.status, headers: headers });
  }) : Promise.resolve(copy);
  return ready.then(function (stored) { return caches.open(PAGES).then(function (cache) { return cache.put(url, stored); }); });
}

function kept(request) {
  return caches.open(PAGES).then(function (cache) { return cache.match(request.url, { ignoreVary: true }); });
}

// The network's page; the copy kept when there is no connection, when the server is in trouble
// (a 5xx: the app restarting behind its proxy), or when no answer has come in 8 s (a weak signal).
// A page not kept waits for the network 20 s in all (a connection that hangs would hold a blank
// screen for minutes), then the offline page, which loads it once the server answers.
function page(request) {
  var timer;
  var answer = fetch(request).then(function (response) {
    clearTimeout(timer);
    /* A server in trouble: the page kept, else for a gateway's error (502-504: the app restarting
       behind its proxy) the offline page, which loads the page asked for once it answers. */
    if (response.status >= 500) return kept(request).then(function (hit) {
      return hit || (response.status > 501 && caches.match(OFFLINE).then(function (off) { return off || response; })) || response;
    });
    keepPage(request.url, response);
    /* A language just chosen (?lang=xx, remembered by the server): the page's plain address, where
       the home page links, is kept in it too, not left in the language before. */
    var plain = new URL(request.url);
    if (/^\?lang=[a-z]+$/.test(plain.search)) { plain.search = ""; keepPage(plain.href, response); }
    if (response.ok && response.headers.get("Content-Language")) offlineIn(response.headers.get("Content-Language"));
    return response;
  }, function (error) { clearTimeout(timer); throw error; });
  var slow = new Promise(function (resolve) { timer = setTimeout(resolve, 8000); })
    .then(function () { return kept(request); })
    .then(function (hit) { return hit || Promise.race([answer, new Promise(function (_, give_up) { setTimeout(give_up, 12000); })]); });
  return Promise.race([answer, slow]).catch(function () {
    return kept(request).then(function (hit) { return hit || caches.match(OFFLINE); });
  });
}

// A game or group forgotten on the phone ({drop: its path, such as /g/<id> or /groups/<id>}) leaves
// none of its pages here: the one at that path and those under it, whatever their query.
function dropPages(path) {
  var gone = new URL(path, self.location).pathname;
  return caches.open(PAGES).then(function (cache) {
    return cache.keys().then(function (requests) {
      return Promise.all(requests.filter(function (request) {
        var at = new URL(request.url).pathname;
        return at === gone || at.indexOf(gone + "/") === 0;
      }).map(function (request) { return cache.delete(request); }));
    });
  });
}

// A page opened before this worker controlled it (the first visit, often through a share link
// that redirects to the game) is kept too: the page asks for it once the worker is active.
self.addEventListener("message", function (event) {
  var drop = event.data && event.data.drop;
  if (typeof drop === "string") {
    event.waitUntil(dropPages(drop));
    return;
  }
  var url = event.data && event.data.keep;
  if (typeof url !== "string" || new URL(url).origin !== self.location.origin) return;
  event.waitUntil(fetch(url, { credentials: "same-origin" }).then(function (response) { return keepPage(url, response); })
    .catch(function () {}));
});

self.addEventListener("fetch", function (event) {
  var request = event.request, url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("/static/") === 0) event.respondWith(fromStatic(request));
  else if (request.mode === "navigate") event.respondWith(page(request));
});
