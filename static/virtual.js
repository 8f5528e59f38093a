/* Virtual tables: poll the version about once a second and swap in the fresh partial; post the
   forms in the background; say why a dimmed card cannot be played. The pages work without it. */
(function () {
  "use strict";
  var busy = false;
  var toastTimer = null;

  function root() { return document.getElementById("vt"); }
  function current() { var r = root(); return r ? r.getAttribute("data-stamp") : null; }

  function toast(text) {
    var box = document.getElementById("vt-toast");
    if (!box) return;
    box.textContent = text;
    box.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(function () { box.hidden = true; }, 4000);
  }

  function swap(html) {
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var fresh = holder.querySelector("#vt");
    var old = root();
    if (!fresh || !old) return false;
    // Keep the "last trick" / "result" / links the player opened or closed.
    old.querySelectorAll("details[id]").forEach(function (d) {
      var twin = fresh.querySelector("details[id='" + d.id + "']");
      if (twin) twin.open = d.open;
    });
    fresh.classList.add("vt-js");
    old.replaceWith(fresh);
    return true;
  }

  function refresh() {
    var r = root();
    if (!r) return Promise.resolve();
    return fetch(r.getAttribute("data-partial-url"), {
      headers: { "X-Partial": "1" }, credentials: "same-origin", cache: "no-store"
    }).then(function (res) { return res.ok ? res.text() : null; })
      .then(function (html) { if (html) swap(html); });
  }

  function poll() {
    var r = root();
    if (!r || busy || document.hidden) return;
    fetch(r.getAttribute("data-version-url"), { credentials: "same-origin", cache: "no-store" })
      .then(function (res) { return res.ok ? res.json() : null; })
      .then(function (data) {
        if (data && !busy && String(data.stamp) !== current()) return refresh();
      })
      .catch(function () { /* offline for a moment: try again next tick */ });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#vt button[data-reason]");
    if (button) {
      event.preventDefault();
      toast(button.getAttribute("data-reason"));
    }
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches("#vt form[data-vt-action]")) return;
    event.preventDefault();
    if (busy) return;  // a second tap while the first is on its way plays nothing
    busy = true;
    var data = new FormData(form);
    var by = event.submitter;
    if (by && by.name) data.append(by.name, by.value);
    root().classList.add("vt-busy");
    fetch(form.action, {
      method: "POST", body: data, headers: { "X-Partial": "1" }, credentials: "same-origin"
    }).then(function (res) { return res.text(); })
      .then(function (html) { if (!swap(html)) toast(window.bluke.say("play_failed")); })
      .catch(function () { toast(window.bluke.say("offline")); })
      .then(function () {
        busy = false;
        var r = root();
        if (r) r.classList.remove("vt-busy");
      });
  });

  // "New table" form: Enter in a name moves on to the next name instead of submitting.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || !event.target.matches(".vt-rows input")) return;
    var inputs = Array.prototype.slice.call(document.querySelectorAll(".vt-rows input"));
    var next = inputs[inputs.indexOf(event.target) + 1];
    event.preventDefault();
    if (next) next.focus(); else event.target.blur();
  });

  // Host page: a tap on a link selects it, ready to copy.
  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("input.vt-url")) event.target.select();
  });

  document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
  if (root()) {
    root().classList.add("vt-js");
    setInterval(poll, 1000);
  }
})();
