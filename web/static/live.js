/* Table Companion: live pages without any library.
 * - #live[data-stream]: an EventSource; a "view" event replaces the live
 *   fragment (never with an older state), "goto" moves the page; it
 *   reconnects by itself, also after the server went away.
 * - form.act: posted with fetch; money moves and data-confirm forms ask
 *   first in a sheet; the answer is a toast and a refreshed fragment.
 * - a.cite: the seed's words in a sheet.
 * - dialogs (the sheets): take focus, hold it (Tab stays inside, the page
 *   behind is inert), close on Escape and give focus back to what opened them.
 * - body.screen .board-fit: scaled down until it fits the TV (fitBoard).
 * - a seat's phone: its secrets veiled until the player peeks (hold, or tap
 *   for PEEK_MS); when its move comes: the title, the status, a vibration,
 *   a sound if chosen; the screen kept on (Wake Lock) where allowed.  The
 *   choices live in this browser (localStorage), set under "This phone".
 * - #rules-q: the rules page searches as you type.
 */
(function () {
  "use strict";

  function $(sel, root) { return (root || document).querySelector(sel); }

  /* a refusal with its rule (ruleUrl, rule): the message without its
     trailing "[seed, section]" and a chip that opens the rule's words; such
     a toast stays long enough to be tapped */
  function toast(message, kind, ruleUrl, rule) {
    if (!message) return;
    var box = $("#toasts");
    var el = document.createElement("div");
    el.className = "toast " + (kind || "ok");
    var stay = 2600;
    if (ruleUrl && rule) {
      el.textContent = message.replace(/\s*\[[^\[\]]*\]\s*$/, "") + " ";
      var chip = document.createElement("a");
      chip.className = "cite";
      chip.href = ruleUrl;
      chip.textContent = "Why? " + rule.seed + " · " + rule.section;
      el.appendChild(chip);
      stay = 9000;
    } else {
      el.textContent = message;
    }
    box.appendChild(el);
    while (box.children.length > 2) box.removeChild(box.firstChild);
    setTimeout(function () { el.classList.add("gone"); }, stay);
    setTimeout(function () { el.remove(); }, stay + 700);
  }

  function fadeFlashes() {
    document.querySelectorAll("#toasts .toast").forEach(function (el) {
      setTimeout(function () { el.classList.add("gone"); }, 4200);
      setTimeout(function () { el.remove(); }, 5000);
    });
  }

  /* ---- the live fragment ---- */
  var live = null;

  function stateOf(root) {
    var r = root.querySelector(".live-root");
    return r ? parseInt(r.getAttribute("data-state"), 10) : -1;
  }

  /* a form of the live fragment by what it does: its key (an action's
     command and arguments), else where it posts (and which of those it is) */
  function formKeys() {
    var keys = [], seen = {};
    live.querySelectorAll("form").forEach(function (form) {
      var key = form.dataset.key;
      if (!key) {
        var at = form.getAttribute("action") || "";
        seen[at] = (seen[at] || 0) + 1;
        key = "@" + at + "#" + seen[at];
      }
      keys.push([key, form]);
    });
    return keys;
  }

  function remember() {
    var kept = {};
    formKeys().forEach(function (pair) {
      var values = {};
      var touched = false;
      pair[1].querySelectorAll("input, select, textarea").forEach(function (input) {
        if (input.type === "hidden") return;
        if (input.type === "checkbox" || input.type === "radio") {
          if (input.checked) { (values[input.name] = values[input.name] || []).push(input.value); touched = true; }
        } else if (input.dataset.dirty) {
          values[input.name] = [input.value]; touched = true;
        }
      });
      if (touched) kept[pair[0]] = values;
    });
    return kept;
  }

  function restore(kept) {
    formKeys().forEach(function (pair) {
      var values = kept[pair[0]];
      if (!values) return;
      pair[1].querySelectorAll("input, select, textarea").forEach(function (input) {
        var v = values[input.name];
        if (!v || input.type === "hidden") return;
        if (input.type === "checkbox" || input.type === "radio") input.checked = v.indexOf(input.value) >= 0;
        else { input.value = v[0]; input.dataset.dirty = "1"; }
      });
    });
  }

  function keyOf(form) {
    var found = null;
    formKeys().forEach(function (pair) { if (pair[1] === form) found = pair[0]; });
    return found;
  }

  /* ---- a live fragment in parts (web/parts.py) ----
   * A stream sends the fragment whole at first ("view"), then only what
   * changed ("parts"): the root element's tag, and each changed part's text
   * or edits of it.  The texts are kept as sent, with the placeholders of
   * the CSRF token and the state number; they are put in as a part is drawn. */
  var texts = {};     // each part's text as last sent
  var rawHtml = "";   // the last whole fragment as sent
  var domAhead = false;  // the page shows a newer state than the stream has sent

  function escapeAttr(v) {
    return String(v).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }

  function fill(html, state) {
    var d = live.dataset;
    if (d.csrfMark) html = html.split(d.csrfMark).join(escapeAttr(d.csrf || ""));
    if (d.stateMark) html = html.split(d.stateMark).join(String(state));
    if (d.stepMark) html = html.split(d.stepMark).join(escapeAttr(d.stepBase || ""));
    return html;
  }

  /* a part that shows the state number (not only in its forms' state fields)
     is put in again at every state: the server draws it once */
  function showsState(text) {
    var mark = live.dataset.stateMark;
    if (!mark || text.indexOf(mark) < 0) return false;
    return text.split('name="state_no" value="' + mark + '"').join("").indexOf(mark) >= 0;
  }

  function readParts(html) {
    var out = {}, at = 0;
    for (;;) {
      var start = html.indexOf("<!--p:", at);
      if (start < 0) return out;
      var nameEnd = html.indexOf("-->", start);
      var name = html.slice(start + 6, nameEnd);
      var close = "<!--/p:" + name + "-->";
      var stop = html.indexOf(close, nameEnd + 3);
      if (stop < 0) return out;
      out[name] = html.slice(nameEnd + 3, stop);
      at = stop + close.length;
    }
  }

  /* the whole fragment as the parts stand now (the last whole one, each part's text put in) */
  function assemble() {
    var out = "", at = 0;
    for (;;) {
      var start = rawHtml.indexOf("<!--p:", at);
      if (start < 0) return out + rawHtml.slice(at);
      var nameEnd = rawHtml.indexOf("-->", start);
      var name = rawHtml.slice(start + 6, nameEnd);
      var close = "<!--/p:" + name + "-->";
      var stop = rawHtml.indexOf(close, nameEnd + 3);
      if (stop < 0) return out + rawHtml.slice(at);
      out += rawHtml.slice(at, nameEnd + 3) + (name in texts ? texts[name] : rawHtml.slice(nameEnd + 3, stop)) + close;
      at = stop + close.length;
    }
  }

  function applyEdits(old, change) {
    if (typeof change === "string") return change;
    var out = "", at = 0;
    change.forEach(function (e) { out += old.slice(at, e[0]) + e[2]; at = e[1]; });
    return out + old.slice(at);
  }

  function partRange(name) {
    var walker = document.createTreeWalker(live, NodeFilter.SHOW_COMMENT);
    var start = null, node;
    while ((node = walker.nextNode())) {
      if (node.data === "p:" + name) start = node;
      else if (start && node.data === "/p:" + name) return [start, node];
    }
    return null;
  }

  /* a change to the live fragment that keeps what the player was doing:
     the fields typed into, the open folds, the focused field */
  function keeping(change) {
    var active = document.activeElement;
    var focusKey = null;
    if (active && live.contains(active) && active.form) {
      var formKey = keyOf(active.form);
      if (formKey) focusKey = [formKey, active.name || ""];
    }
    var openDetails = {};
    live.querySelectorAll("details").forEach(function (d, i) { openDetails[d.dataset.key || i] = d.open; });
    var kept = remember();
    change();
    live.querySelectorAll("details").forEach(function (d, i) {
      var key = d.dataset.key || i;
      if (key in openDetails) d.open = openDetails[key];
    });
    restore(kept);
    if (focusKey && !live.contains(document.activeElement)) {
      formKeys().forEach(function (pair) {
        if (pair[0] !== focusKey[0]) return;
        var input = focusKey[1] ? pair[1].querySelector('[name="' + focusKey[1] + '"]') : pair[1].querySelector("button.big");
        if (input && input.type !== "hidden") input.focus({ preventScroll: true });
      });
    }
  }

  function viewed(state) {
    document.dispatchEvent(new CustomEvent("companion:view", { detail: { state: state } }));
  }

  /* the fragment whole: from a stream ("view", with placeholders, its state
     given) or fetched (filled in, its state in its root) */
  function swap(html, sent, state) {
    var incoming = state;
    if (!sent) {
      var holder = document.createElement("div");
      holder.innerHTML = html;
      incoming = stateOf(holder);
    }
    if (sent) { rawHtml = html; texts = readParts(html); }
    if (incoming < stateOf(live)) { if (sent) domAhead = true; return; }
    if (sent) domAhead = false;
    keeping(function () { live.innerHTML = sent ? fill(html, incoming) : html; });
    viewed(incoming);
  }

  /* what changed since the last event of this stream */
  function applyParts(msg) {
    var names = Object.keys(msg.parts || {});
    names.forEach(function (name) { texts[name] = applyEdits(texts[name] || "", msg.parts[name]); });
    if (msg.s < stateOf(live)) { domAhead = true; return; }
    if (domAhead) {  /* the page was drawn from elsewhere meanwhile: draw it whole from the parts */
      domAhead = false;
      var whole = assemble();
      if (msg.root) whole = msg.root + whole.slice(whole.indexOf(">") + 1);
      keeping(function () { live.innerHTML = fill(whole, msg.s); });
      viewed(msg.s);
      return;
    }
    keeping(function () {
      var root = live.querySelector(".live-root");
      var was = stateOf(live);
      if (msg.root && root) {
        var tmp = document.createElement("div");
        tmp.innerHTML = fill(msg.root, msg.s) + "</div>";
        var fresh = tmp.firstChild;
        Array.prototype.slice.call(root.attributes).forEach(function (a) {
          if (!fresh.hasAttribute(a.name)) root.removeAttribute(a.name);
        });
        Array.prototype.forEach.call(fresh.attributes, function (a) { root.setAttribute(a.name, a.value); });
      }
      if (msg.s !== was) {
        Object.keys(texts).forEach(function (name) {
          if (names.indexOf(name) < 0 && showsState(texts[name])) names.push(name);
        });
      }
      names.forEach(function (name) {
        var r = partRange(name);
        if (!r) return;
        var range = document.createRange();
        range.setStartAfter(r[0]);
        range.setEndBefore(r[1]);
        range.deleteContents();
        r[1].parentNode.insertBefore(range.createContextualFragment(fill(texts[name], msg.s)), r[1]);
      });
      /* a form in a part that did not change is still good: it now sends this state */
      live.querySelectorAll('input[name="state_no"]').forEach(function (input) { input.value = String(msg.s); });
      if (root && !msg.root) root.setAttribute("data-state", String(msg.s));
    });
    if (msg.root) rawHtml = msg.root + rawHtml.slice(rawHtml.indexOf(">") + 1);
    viewed(msg.s);
  }

  function refresh() {
    if (!live || !live.dataset.live) return Promise.resolve();
    return fetch(live.dataset.live, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
      .then(function (r) {
        /* the seat was freed or the login ended: nothing private stays on the
           screen; the page itself says what to do (join again, log in) */
        if (r.status === 403) { window.location.reload(); return null; }
        return r.ok ? r.text() : null;
      })
      .then(function (html) { if (html) swap(html, false); })
      .catch(function () {});
  }

  var source = null;
  var retryTimer = null;

  var connected = false;

  function setConn(ok) {
    connected = ok;
    var c = $("#conn");
    if (!c) return;
    c.className = ok ? "conn on" : "conn off";
    var words = c.querySelector(".visually-hidden");
    if (words) words.textContent = c.dataset[ok ? "on" : "off"] || "";
  }

  function marksCame(marks) {
    if (live && marks) {
      live.dataset.csrfMark = marks.csrf;
      live.dataset.stateMark = marks.state;
      if (marks.step) live.dataset.stepMark = marks.step;
    }
  }

  /* the page's live connection: a WebSocket where the companion keeps them
     (#live[data-ws]), else an event stream; both carry the same messages */
  function connect(url) {
    if (live && live.dataset.ws && window.WebSocket) connectSocket(url);
    else connectStream(url);
  }

  function connectStream(url) {
    if (source) source.close();
    source = new EventSource(url);
    source.addEventListener("open", function () { setConn(true); });
    source.addEventListener("marks", function (ev) {
      try { marksCame(JSON.parse(ev.data)); } catch (e) { /* not for this page */ }
    });
    source.addEventListener("view", function (ev) { setConn(true); swap(ev.data, true, parseInt(ev.lastEventId, 10)); });
    source.addEventListener("parts", function (ev) {
      setConn(true);
      var msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      applyParts(msg);
    });
    source.addEventListener("goto", function (ev) { source.close(); window.location.href = ev.data; });
    source.addEventListener("error", function () {
      setConn(false);
      if (source.readyState === EventSource.CLOSED) {
        clearTimeout(retryTimer);
        retryTimer = setTimeout(function () { refresh(); connect(url); }, 2500);
      }
    });
  }

  var socket = null;
  var asked = 0;
  var waiting = {};  // an action sent on the socket: its number -> what to do with the answer

  function connectSocket(url) {
    if (socket) { socket.onclose = null; socket.close(); }
    var open = false;
    var ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + url);
    socket = ws;
    ws.onopen = function () { open = true; setConn(true); };
    ws.onmessage = function (ev) {
      var msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg.t === "marks") marksCame(msg);
      else if (msg.t === "goto") { ws.onclose = null; ws.close(); window.location.href = msg.to; }
      else if (msg.t === "result") {
        var done = waiting[msg.n];
        delete waiting[msg.n];
        if (done) done.resolve(msg);
      } else if ("html" in msg) { setConn(true); swap(msg.html, true, msg.s); }
      else if ("parts" in msg) applyParts(msg);
    };
    ws.onclose = function () {
      if (socket === ws) socket = null;
      setConn(false);
      Object.keys(waiting).forEach(function (n) { waiting[n].reject(new Error("connection lost")); delete waiting[n]; });
      clearTimeout(retryTimer);
      retryTimer = setTimeout(function () { refresh(); connect(url); }, open ? 1000 : 2500);
    };
  }

  /* a form sent on the live connection: the page's own action form, while
     the socket is open (anything else is posted) */
  function onSocket(form) {
    return socket && socket.readyState === 1 && live && live.dataset.act &&
      form.getAttribute("action") === live.dataset.act;
  }

  function sendOnSocket(form, data) {
    return new Promise(function (resolve, reject) {
      var n = ++asked;
      var pairs = [];
      data.forEach(function (value, name) { pairs.push([name, value]); });
      waiting[n] = { resolve: resolve, reject: reject };
      socket.send(JSON.stringify({ t: "act", n: n, url: form.getAttribute("action"), form: pairs }));
      setTimeout(function () {
        if (waiting[n]) { delete waiting[n]; reject(new Error("no answer")); }
      }, 15000);
    });
  }

  /* ---- this phone: preferences (kept in the browser) ---- */
  var PREFS = { showSecrets: false, vibrate: true, sound: false, awake: true };

  function pref(name) {
    try {
      var v = window.localStorage.getItem("tc." + name);
      if (v === "1") return true;
      if (v === "0") return false;
    } catch (e) { /* storage blocked: the defaults */ }
    return PREFS[name];
  }

  function setPref(name, on) {
    try { window.localStorage.setItem("tc." + name, on ? "1" : "0"); } catch (e) { /* kept for this page only */ }
    PREFS[name] = on;
  }

  /* ---- peek: the seat's secrets stay veiled until the player looks ---- */
  var peekTimer = null;
  var pressedAt = 0;
  var shownBeforePress = false;
  var swallowClick = false;
  var HOLD_MS = 350;

  function isVeiled() { return !!live && live.classList.contains("secrets-veiled"); }

  function syncPeek() {
    if (!live) return;
    var keep = pref("showSecrets");
    live.classList.toggle("keep-shown", keep);
    if (keep) live.classList.remove("secrets-veiled");
    var b = $("#peek");
    if (b) b.setAttribute("aria-expanded", String(!isVeiled()));
  }

  function veil() {
    clearTimeout(peekTimer);
    peekTimer = null;
    endUse();
    if (!live || !live.dataset.peekMs || pref("showSecrets")) return;
    live.classList.add("secrets-veiled");
    syncPeek();
  }

  function reveal(ms) {
    clearTimeout(peekTimer);
    if (!live) return;
    live.classList.remove("secrets-veiled");
    peekTimer = ms ? setTimeout(veil, ms) : null;
    syncPeek();
  }

  function peekMs() { return parseInt(live.dataset.peekMs, 10) || 8000; }

  var fromPointer = false;

  document.addEventListener("pointerdown", function (ev) {
    if (!ev.target.closest || !ev.target.closest("#peek")) return;
    pressedAt = Date.now();
    fromPointer = true;
    swallowClick = false;
    shownBeforePress = !isVeiled();
    reveal(0);
  });

  function release(ev) {
    if (!pressedAt) return;
    var held = Date.now() - pressedAt;
    pressedAt = 0;
    /* a hold shows them only while held; a press that became a scroll shows nothing */
    if (held >= HOLD_MS || ev.type === "pointercancel") { swallowClick = true; veil(); }
  }
  ["pointerup", "pointercancel"].forEach(function (name) { document.addEventListener(name, release); });
  document.addEventListener("contextmenu", function (ev) {
    if (ev.target.closest && ev.target.closest("#peek")) ev.preventDefault();  /* a long press is a peek, not a menu */
  });

  /* a tap (or Enter / Space) shows them for PEEK_MS, or hides them if shown */
  function onPeekClick() {
    var wasShown = fromPointer ? shownBeforePress : !isVeiled();
    fromPointer = false;
    if (swallowClick) { swallowClick = false; return; }
    if (wasShown) veil(); else reveal(peekMs());
  }

  /* filling in an action form shows the numbers it veils (web/veil.py), in
     that form only (the private card stays veiled: nothing moves under the
     finger), for as long as the player keeps using it */
  var useTimer = null;

  function formInUse(form) {
    form.classList.add("in-use");
    clearTimeout(useTimer);
    useTimer = setTimeout(endUse, peekMs());
  }

  function endUse() {
    clearTimeout(useTimer);
    useTimer = null;
    if (live) live.querySelectorAll("form.in-use").forEach(function (f) { f.classList.remove("in-use"); });
  }

  function usingForm(ev) {
    if (!live || !live.dataset.peekMs || !ev.target.closest || !ev.target.closest(".fields")) return;
    var form = ev.target.closest("form.act");
    if (form && live.contains(form)) formInUse(form);
  }
  ["focusin", "pointerdown", "input"].forEach(function (name) { document.addEventListener(name, usingForm); });

  /* ---- your move: title, status, vibration, sound ---- */
  var myTurn = null;
  var audio = null;

  function rootData(name) {
    var r = live && live.querySelector(".live-root");
    return r ? r.getAttribute("data-" + name) : null;
  }

  function beep() {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    try {
      if (!audio) audio = new Ctx();
      if (audio.state === "suspended") audio.resume();
      [0, 0.22].forEach(function (at, i) {
        var tone = audio.createOscillator(), gain = audio.createGain();
        tone.frequency.value = i ? 1175 : 880;
        gain.gain.value = 0.2;
        tone.connect(gain);
        gain.connect(audio.destination);
        tone.start(audio.currentTime + at);
        tone.stop(audio.currentTime + at + 0.16);
      });
    } catch (e) { /* no sound on this device */ }
  }

  function turnCame() {
    if (pref("vibrate") && navigator.vibrate) {
      try { navigator.vibrate([200, 100, 200]); } catch (e) { /* not allowed here */ }
    }
    if (pref("sound")) beep();
    var status = live.querySelector(".phone-status");
    if (status) {
      status.classList.add("turn-came");
      var note = $("#turn-note");
      if (note) note.textContent = status.textContent.trim();
    }
  }

  function followTurn() {
    var title = rootData("title");
    if (title) document.title = title;
    var now = rootData("your-turn") === "1";
    if (myTurn === false && now) turnCame();
    myTurn = now;
  }

  /* ---- keep the screen on (Wake Lock) where the browser allows it ---- */
  var wakeLock = null;

  function awakeNote(which) {
    var note = $("#awake-note");
    if (note) note.textContent = note.getAttribute("data-" + which) || "";
  }

  function keepAwake() {
    if (!$("#awake-note")) return;
    if (!("wakeLock" in navigator) || !navigator.wakeLock) { awakeNote("unsupported"); return; }
    var wanted = pref("awake") && rootData("finished") !== "1";
    if (!wanted) {
      if (wakeLock) { wakeLock.release(); wakeLock = null; }
      awakeNote("off");
      return;
    }
    if (wakeLock || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (lock) {
      wakeLock = lock;
      awakeNote("on");
      lock.addEventListener("release", function () { if (wakeLock === lock) wakeLock = null; });
    }).catch(function () { awakeNote("refused"); });
  }

  function phoneSettings() {
    document.querySelectorAll("#phone-settings input[data-pref]").forEach(function (box) {
      box.checked = pref(box.dataset.pref);
      box.addEventListener("change", function () {
        setPref(box.dataset.pref, box.checked);
        if (box.dataset.pref === "showSecrets") { if (box.checked) reveal(0); else veil(); }
        if (box.dataset.pref === "sound" && box.checked) beep();  /* a tap unlocks sound, and the player hears it */
        if (box.dataset.pref === "awake") keepAwake();
      });
    });
  }

  function phone() {
    if (!live || !live.dataset.peekMs) return;
    phoneSettings();
    syncPeek();
    followTurn();
    keepAwake();
    document.addEventListener("companion:view", function () { syncPeek(); followTurn(); keepAwake(); });
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") keepAwake(); else veil();
    });
  }

  /* ---- the table screen fits the TV ----
   * The board's content is laid out wider (width W / s) and scaled by s, with s
   * the largest scale (found by bisection) at which it fits the board's box:
   * a wider layout puts more mats side by side, so less has to shrink. */
  var MIN_SCALE = 0.3;  // text is never drawn smaller for it: see --fit in app.css
  var fitQueued = false;
  // Anything that changes the board's size between two views (a late font, a
  // part redrawn by itself, a box opened) fits it again: the fit is idempotent,
  // so the observer's answer to our own resizing settles after one frame.
  var fitWatch = window.ResizeObserver ? new ResizeObserver(function () { queueFit(); }) : null;
  var fitWatched = null;

  function fitBoard() {
    fitQueued = false;
    var box = document.querySelector("body.screen .board");
    var inner = box && box.querySelector(".board-fit");
    if (!inner) return;
    if (fitWatch && fitWatched !== inner) {
      fitWatch.disconnect();
      fitWatch.observe(box);
      fitWatch.observe(inner);
      fitWatched = inner;
    }
    var W = box.clientWidth, H = box.clientHeight;
    if (!W || !H) return;
    inner.style.transform = "none";
    // --fit lets the CSS keep small text legible however far the board is scaled
    function heightAt(s) { inner.style.width = (W / s) + "px"; inner.style.setProperty("--fit", s); return inner.offsetHeight; }
    function largestFit() {
      if (heightAt(1) <= H) return 1;
      var lo = MIN_SCALE, hi = 1;
      for (var i = 0; i < 9; i++) {
        var mid = (lo + hi) / 2;
        if (heightAt(mid) * mid <= H) lo = mid; else hi = mid;
      }
      return lo;
    }
    // a board too full to fit with legible text folds away its .tv-optional
    // parts (a caption, the discard pile: the phones and the host still show them)
    inner.classList.remove("crowded");
    var scale = largestFit();
    if (heightAt(scale) * scale > H) {
      inner.classList.add("crowded");
      scale = largestFit();
    }
    heightAt(scale);
    inner.style.transform = scale < 1 ? "scale(" + scale + ")" : "none";
    inner.dataset.scale = scale.toFixed(3);
  }

  function queueFit() {
    if (fitQueued || !document.body.classList.contains("screen")) return;
    fitQueued = true;
    window.requestAnimationFrame(fitBoard);
  }

  /* ---- dialogs ---- */
  var dialog = null;  // the open one: {box, opener, key, done}

  function focusables(box) {
    var all = box.querySelectorAll('a[href], button:not([disabled]), input:not([type=hidden]):not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])');
    return Array.prototype.filter.call(all, function (el) { return el.getClientRects().length > 0; });
  }

  function openDialog(box, first, done) {
    if (dialog) closeDialog(false);
    var opener = document.activeElement;
    var form = opener && opener.closest ? opener.closest("form[data-key]") : null;
    dialog = { box: box, opener: opener, key: form ? form.dataset.key : null, done: done };
    Array.prototype.forEach.call(document.body.children, function (el) {
      if (el !== box && el.id !== "toasts" && el.tagName !== "SCRIPT") el.inert = true;
    });
    box.hidden = false;
    (first || focusables(box)[0] || box).focus();
  }

  function closeDialog(answer) {
    var d = dialog;
    if (!d) return;
    dialog = null;
    d.box.hidden = true;
    Array.prototype.forEach.call(document.body.children, function (el) { el.inert = false; });
    var back = d.opener;
    if ((!back || !document.body.contains(back)) && d.key && live) {
      // a live update replaced the form meanwhile: its new button
      live.querySelectorAll("form[data-key]").forEach(function (f) {
        if (f.dataset.key === d.key) back = f.querySelector("button.big");
      });
    }
    if (back && back.focus && document.body.contains(back)) back.focus({ preventScroll: true });
    if (d.done) d.done(answer);
  }

  document.addEventListener("keydown", function (ev) {
    if (!dialog) return;
    if (ev.key === "Escape") { ev.preventDefault(); closeDialog(false); return; }
    if (ev.key !== "Tab") return;
    var items = focusables(dialog.box);
    var inside = dialog.box.contains(document.activeElement);
    if (!items.length) { ev.preventDefault(); return; }
    var first = items[0], last = items[items.length - 1];
    if (ev.shiftKey && (!inside || document.activeElement === first || document.activeElement === dialog.box.querySelector("[tabindex='-1']"))) {
      ev.preventDefault(); last.focus();
    } else if (!ev.shiftKey && (!inside || document.activeElement === last)) {
      ev.preventDefault(); first.focus();
    }
  });

  /* the confirmation sheet */
  function ask(title, body) {
    return new Promise(function (resolve) {
      var sheet = $("#sheet");
      $("#sheet-title").textContent = title;
      $("#sheet-body").textContent = body || "";
      openDialog(sheet, sheet.querySelector("[data-sheet=yes]"), resolve);
    });
  }

  /* an element's words without the stand-ins of veiled numbers (nor a button's coin) */
  function shownText(el) {
    var copy = el.cloneNode(true);
    copy.querySelectorAll(".veil-dots, [aria-hidden=true]").forEach(function (d) { d.remove(); });
    return copy.textContent.replace(/\s+/g, " ").trim();
  }

  /* "How much: 3, Colour: Green": what the form will send, in words */
  function summary(form) {
    var parts = [];
    form.querySelectorAll(".field").forEach(function (field) {
      var label = field.querySelector(":scope > label, :scope > span, :scope > legend");
      var name = label ? shownText(label) : "";
      var values = [];
      field.querySelectorAll("input, select").forEach(function (input) {
        if (input.type === "hidden" || input.type === "button") return;
        if (input.type === "radio" || input.type === "checkbox") {
          if (input.checked) values.push(input.nextElementSibling ? input.nextElementSibling.textContent.trim() : input.value);
        } else if (input.tagName === "SELECT") {
          if (input.selectedIndex >= 0) values.push(input.options[input.selectedIndex].text);
        } else if (input.value !== "") {
          values.push(input.value);
        }
      });
      if (values.length) parts.push((name ? name + ": " : "") + values.join(", "));
    });
    return parts.join("; ");
  }

  function post(form, confirmed) {
    var data = new URLSearchParams(new FormData(form));
    if (confirmed) data.set("confirmed", "1");
    var buttons = form.querySelectorAll("button");
    buttons.forEach(function (b) { b.disabled = true; });
    form.classList.add("busy");
    var sent = onSocket(form) ? sendOnSocket(form, data) : fetch(form.action, {
      method: "POST", body: data, credentials: "same-origin",
      headers: { "X-Requested-With": "fetch", "Content-Type": "application/x-www-form-urlencoded" }
    }).then(function (r) {
      return r.json().catch(function () { return { ok: false, code: String(r.status), message: "The companion did not answer properly (" + r.status + ")." }; });
    });
    return sent.then(function (body) {
      if (body.code === "confirm" && !confirmed) {
        return ask("Are you sure?", body.confirm || body.message).then(function (yes) {
          form.classList.remove("busy");
          buttons.forEach(function (b) { b.disabled = false; });
          if (yes) return post(form, true);
        });
      }
      toast(body.message, body.ok ? "ok" : (body.code === "stale" ? "stale" : "refused"), body.rule_url, body.rule);
      if (body.code === "400" && /out of date/.test(body.message || "")) setTimeout(function () { location.reload(); }, 1200);
      /* a live page gets the table's new state from its stream; without one, it asks */
      if (live) return connected ? null : refresh();
      return body.ok ? location.reload() : null;
    }).catch(function () {
      toast("The companion cannot be reached: try again in a moment.", "refused");
    }).then(function () {
      form.classList.remove("busy");
      buttons.forEach(function (b) { if (!b.hasAttribute("data-keep-disabled")) b.disabled = false; });
    });
  }

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.classList || !form.classList.contains("act")) return;
    ev.preventDefault();
    var question = form.hasAttribute("data-confirm-label") ? shownText(form.querySelector("button.big")) : form.dataset.confirm;
    /* sending a form is using it: the sheet says the amounts, so they show in the form too */
    if (live && live.dataset.peekMs && live.contains(form)) formInUse(form);
    if (question) {
      var chosen = summary(form);
      if (chosen) question += " — " + chosen;
      ask("Are you sure?", question).then(function (yes) { if (yes) post(form, true); });
    } else {
      post(form, false);
    }
  });

  document.addEventListener("click", function (ev) {
    if (ev.target.closest("#peek")) { onPeekClick(); return; }
    var step = ev.target.closest("button.step");
    if (step) {
      ev.preventDefault();
      var input = step.parentNode.querySelector("input[type=number]");
      var v = parseInt(input.value || "0", 10) + parseInt(step.dataset.step, 10);
      if (input.min !== "" && v < parseInt(input.min, 10)) v = parseInt(input.min, 10);
      if (input.max !== "" && v > parseInt(input.max, 10)) v = parseInt(input.max, 10);
      input.value = v;
      input.dataset.dirty = "1";
      return;
    }
    var cite = ev.target.closest("a.cite");
    if (cite && !ev.target.closest("#rule-box")) {
      ev.preventDefault();
      var box = $("#rule-box");
      cite.focus({ preventScroll: true });
      fetch(cite.href + "&fragment=1", { credentials: "same-origin" })
        .then(function (r) { return r.text(); })
        .then(function (html) { $("#rule-body").innerHTML = html; openDialog(box, box.querySelector(".rule-card")); })
        .catch(function () { window.location.href = cite.href; });
      return;
    }
    var answer = ev.target.closest("[data-sheet]");
    if (answer) { closeDialog(answer.dataset.sheet === "yes"); return; }
    if (ev.target.closest("[data-rule-close]") || (dialog && ev.target === dialog.box)) closeDialog(false);
  });

  document.addEventListener("input", function (ev) {
    if (ev.target.matches && ev.target.matches("input, select, textarea")) ev.target.dataset.dirty = "1";
  });

  /* ---- the rules page: search as you type ----
   * The form works without script (a GET); with it, each pause in typing
   * asks for the results fragment and the address keeps the search. */
  var rulesTimer = null;
  var rulesAsked = 0;

  function searchRules(form) {
    var params = new URLSearchParams(new FormData(form));
    var asked = ++rulesAsked;
    var url = form.action + "?" + params.toString();
    fetch(url + "&fragment=1", { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html === null || asked !== rulesAsked) return;
        $("#rules-results").innerHTML = html;
        if (window.history && history.replaceState) history.replaceState(null, "", url);
      })
      .catch(function () {});
  }

  document.addEventListener("input", function (ev) {
    if (ev.target.id !== "rules-q") return;
    clearTimeout(rulesTimer);
    var form = ev.target.form;
    rulesTimer = setTimeout(function () { searchRules(form); }, 120);
  });

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.classList || !form.classList.contains("rules-search")) return;
    ev.preventDefault();
    clearTimeout(rulesTimer);
    searchRules(form);
  });

  // a new view is fitted before it is ever painted: no frame of the TV shows it running over
  document.addEventListener("companion:view", function () { fitBoard(); });
  window.addEventListener("resize", queueFit);
  document.addEventListener("toggle", queueFit, true);

  document.addEventListener("DOMContentLoaded", function () {
    fadeFlashes();
    fitBoard();
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(queueFit);
    live = $("#live");
    phone();
    if (live && live.dataset.stream) connect(live.dataset.stream);
    var lobby = $("#lobby");
    if (lobby && lobby.dataset.stream) {
      live = null;
      connect(lobby.dataset.stream);
    }
  });
})();
