// The phone handset page: the box pushes each change of the screen on a Server-Sent Events stream
// (web/push.py), each event carrying the new screen, shown at once (an event without one, the stream's
// first, makes the page fetch its screen: 204 while nothing changed); while the stream is down it polls
// every data-poll ms instead, and every data-pushed-poll ms while it is up. Answers are
// sent with fetch and the new screen shown at once. Every screen carries the web server's clock
// (X-Quizbox-Clock): a buzz is sent with the tap's time on that clock, as a handset stamps its press. What the player is typing survives a refresh of the same prompt, the same
// question coming back under a new prompt (after a pause, say) and a reload of the page, until it is sent.
// Small helps while typing (the handset core still checks everything when the answer is sent):
// Enter moves from "From" to "To" and sends a bet with its own button; a chosen copy greys out the
// range; a split over two sides puts the rest of the chips on the other side.
(function () {
  "use strict";
  var root = document.getElementById("phone");
  if (!root) { return; }
  var panelUrl = root.getAttribute("data-panel");
  var every = parseInt(root.getAttribute("data-poll"), 10) || 1000;
  var pushedEvery = parseInt(root.getAttribute("data-pushed-poll"), 10) || 10000;
  var pushUrl = root.getAttribute("data-push") || "";
  var battery = "";
  var busy = false;
  var fetching = false, again = false, timer = null;
  var stream = null, pushUp = false, reopenAfter = 2000;
  // what the tests and the bench read: how the screen came (pushed or polled), the clock offset
  var stats = window.quizboxPhone = {pushes: 0, polls: 0, pushUp: false, offset: null, shown: 0, carried: 0};
  // what was typed, by question (kind, title, text), until it is sent; kept in the tab's sessionStorage
  // (under the phone's name) so that a reload of the page loses nothing
  var storeKey = "quizbox-drafts:" + (root.getAttribute("data-phone") || "");
  var drafts = loadDrafts();

  function loadDrafts() {
    try { return JSON.parse(window.sessionStorage.getItem(storeKey) || "{}") || {}; } catch (e) { return {}; }
  }
  function saveDrafts() {
    try { window.sessionStorage.setItem(storeKey, JSON.stringify(drafts)); } catch (e) { /* private mode: memory only */ }
  }
  // the answer form's draft as typed now (or ``values``, read a moment ago), saved
  function keep(values) { if (answers().length) { drafts[attr("data-draft")] = values || typed(); saveDrafts(); } }

  function panel() { return root.querySelector(".phone-panel"); }
  function attr(name) { var p = panel(); return p ? p.getAttribute(name) : ""; }
  function answers() { return root.querySelectorAll("form.answer input, form.answer select"); }
  // what survives a refresh of the same screen: the answer, and a seat code or a team code being typed (a
  // pushed redraw while a team code was typed wiped it, and the join sent nothing: found in a CI run)
  function fields() {
    return root.querySelectorAll("form.answer input, form.answer select, form.retake input, form.team-join input");
  }

  function typed() {
    var values = {};
    fields().forEach(function (field) {
      if (field.type === "hidden") { return; }
      if (field.type === "radio" || field.type === "checkbox") {
        values[field.name + "=" + field.value] = field.checked;
      } else { values[field.name] = field.value; }
    });
    return values;
  }
  function restore(values) {
    fields().forEach(function (field) {
      if (field.type === "hidden") { return; }
      if (field.type === "radio" || field.type === "checkbox") {
        var key = field.name + "=" + field.value;
        if (values[key] !== undefined) { field.checked = values[key]; }
      } else if (values[field.name] !== undefined) { field.value = values[field.name]; }
    });
  }

  // -- helps while typing ----------------------------------------------------------------------------
  function copyChosen() {
    var copy = root.querySelector("form.answer select[name=copy]");
    var chosen = Boolean(copy && copy.value);
    root.querySelectorAll("form.answer .range input").forEach(function (input) {
      input.disabled = chosen;
      if (chosen) { input.value = ""; }
    });
  }
  function splitLeft(changed) {
    var box = root.querySelector("form.answer .split");
    if (!box) { return; }
    var total = parseInt(box.getAttribute("data-total"), 10);
    var inputs = Array.prototype.slice.call(box.querySelectorAll("input"));
    // whole chips from 0 (empty: 0); anything else is NaN, so the count below says so
    function value(input) { var t = input.value.trim(); return t === "" ? 0 : (/^\d+$/.test(t) ? parseInt(t, 10) : NaN); }
    if (changed && inputs.length === 2) {
      var mine = value(changed);
      var other = inputs[0] === changed ? inputs[1] : inputs[0];
      if (mine >= 0 && mine <= total) { other.value = String(total - mine); }
    }
    var used = inputs.reduce(function (sum, input) { return sum + value(input); }, 0);
    var left = root.querySelector("form.answer .split-left");
    function chips(n) { return n + (n === 1 ? " chip" : " chips"); }
    if (left && !isNaN(total)) {
      left.textContent = isNaN(used) ? "Whole chips only, from 0." : used === total ? "All " + chips(total) + " placed." :
        (used < total ? chips(total - used) + " still to place." : chips(used - total) + " too many.");
    }
  }
  function helps() { copyChosen(); splitLeft(null); }

  root.addEventListener("change", function (event) {
    if (event.target.name === "copy") { copyChosen(); }
    keep();
  });
  root.addEventListener("input", function (event) {
    if (event.target.closest && event.target.closest(".split")) { splitLeft(event.target); }
    keep();
  });
  root.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || !event.target.form || event.target.tagName !== "INPUT") { return; }
    var target = event.target;
    if (target.name === "bottom") {  // From: go on to To rather than send half a range
      event.preventDefault();
      target.form.querySelector("input[name=top]").focus();
    } else if (target.closest(".amount")) {  // a bet amount: send with its own button, never Fold
      event.preventDefault();
      target.closest(".amount").querySelector("button").click();
    } else if (target.form.classList.contains("kind-bet")) {
      event.preventDefault();
    }
  });

  // -- the screen ----------------------------------------------------------------------------------------
  function show(html) {
    var before = attr("data-prompt"), values = typed(), focused = document.activeElement;
    var focusName = focused && focused.name;
    keep(values);
    root.innerHTML = html;
    if (attr("data-prompt") === before) {
      restore(values);
      if (focusName) { var again = root.querySelector("[name='" + focusName + "']"); if (again) { again.focus(); } }
    } else if (drafts[attr("data-draft")]) {
      restore(drafts[attr("data-draft")]);  // the same question again, under a new prompt
    }
    helps();
  }
  // -- the web server's clock (ms), for a buzz's press time: each response bounds the offset, as
  // appliance/edge/clocksync.py does for handsets (server - page: at least ts - t3, at most ts - t0)
  var samples = [];
  function clocked(response, t0) {
    var ts = parseInt(response.headers.get("X-Quizbox-Clock"), 10), t3 = performance.now();
    if (isNaN(ts)) { return; }
    samples.push({low: ts - t3, high: ts - t0});
    if (samples.length > 8) { samples.shift(); }
    var low = -Infinity, high = Infinity;
    samples.forEach(function (s) { low = Math.max(low, s.low); high = Math.min(high, s.high); });
    if (low > high) {  // the server's clock jumped (a restart): the newest sample alone
      samples = [samples[samples.length - 1]];
      low = samples[0].low; high = samples[0].high;
    }
    stats.offset = (low + high) / 2;
  }

  // -- the screen, pushed or polled ----------------------------------------------------------------------
  // a screen's version: its first number counts the phone's changes in this web server (web/phones.py)
  function versionOf(html) { var m = /data-version="(\d+)/.exec(html || ""); return m ? parseInt(m[1], 10) : 0; }
  function shownVersion() { return parseInt(attr("data-version"), 10) || 0; }
  function refresh(why) {
    if (fetching || busy) { again = true; return; }
    fetching = true;
    var carriedBefore = stats.carried;
    if (why === "push") { stats.pushes += 1; } else { stats.polls += 1; }
    var url = panelUrl + "?v=" + encodeURIComponent(attr("data-version")) + (battery ? "&battery=" + battery : "");
    var t0 = performance.now();
    fetch(url, {credentials: "same-origin", cache: "no-store"})
      .then(function (response) {
        clocked(response, t0);
        if (response.status === 410) { window.location.href = "/join"; return null; }
        return response.status === 200 ? response.text() : null;
      })
      .then(function (html) {
        // a screen pushed while this one was on its way is newer unless this one says otherwise
        if (!html || (stats.carried !== carriedBefore && versionOf(html) < shownVersion())) { return; }
        show(html); stats.shown += 1;
      })
      .catch(function () { /* Wi-Fi gone for a moment: the next poll or push tries again */ })
      .finally(function () {
        fetching = false;
        if (again) { again = false; refresh(why); }
      });
  }
  function schedule() {
    if (timer !== null) { window.clearTimeout(timer); }
    timer = window.setTimeout(function () { timer = null; refresh("poll"); schedule(); }, pushUp ? pushedEvery : every);
  }
  function openStream() {
    if (!pushUrl || !window.EventSource) { return; }
    stream = new EventSource(pushUrl);
    stream.onopen = function () { pushUp = stats.pushUp = true; reopenAfter = 2000; schedule(); };
    stream.onmessage = function (event) {
      var data = null;
      try { data = JSON.parse(event.data); } catch (e) { data = null; }
      if (data && typeof data.panel === "string" && !busy) {  // the new screen itself: shown now
        stats.pushes += 1;
        // one rendered before the answer's own reply came back is older than what is shown: skip it
        if (versionOf(data.panel) < shownVersion()) { return; }
        stats.carried += 1; stats.shown += 1;
        show(data.panel);
        return;
      }
      refresh("push");  // the clock alone (or an answer on its way, which brings its own screen): fetch
    };
    stream.onerror = function () {
      var was = pushUp;
      pushUp = stats.pushUp = false;
      if (was) { schedule(); }  // poll at once at the short interval until the stream is back
      if (stream.readyState === EventSource.CLOSED) {  // refused, or not a stream: try again later
        stream = null;
        window.setTimeout(openStream, reopenAfter);
        reopenAfter = Math.min(reopenAfter * 2, 60000);
      }  // otherwise the browser reconnects by itself (the stream's retry)
    };
  }
  var pressedAt = null;  // when the buzz button was touched (page clock)
  root.addEventListener("pointerdown", function (event) {
    if (event.target.closest && event.target.closest("button.buzz")) { pressedAt = event.timeStamp; }
  });
  root.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList.contains("answer")) { return; }
    event.preventDefault();
    if (busy) { return; }  // one answer at a time: a double tap sends once
    var data = new FormData(form);
    if (event.submitter && event.submitter.name) { data.append(event.submitter.name, event.submitter.value); }
    if (form.querySelector("button.buzz") && stats.offset !== null) {
      // the press on the web server's clock (web/phones.py keeps it between the prompt and its arrival)
      var at = pressedAt !== null && event.timeStamp - pressedAt < 2000 ? pressedAt : event.timeStamp;
      data.append("pressed", String(Math.round(at + stats.offset)));
    }
    pressedAt = null;
    busy = true;
    var draft = attr("data-draft");
    var t0 = performance.now();
    // getAttribute: a bet form has buttons named "action", which form.action would return instead
    fetch(form.getAttribute("action"), {method: "POST", body: data, credentials: "same-origin",
                        headers: {"X-Requested-With": "fetch"}})
      .then(function (response) { clocked(response, t0); return response.text(); })
      .then(function (html) {
        show(html);
        if (!answers().length) { delete drafts[draft]; saveDrafts(); }  // sent and taken: nothing left to keep
      })
      .catch(function () { form.submit(); })
      .finally(function () {
        busy = false;
        if (again) { again = false; refresh("push"); }  // a change pushed while the answer was on its way
      });
  });
  if (navigator.getBattery) {
    navigator.getBattery().then(function (b) {
      function update() { battery = String(Math.round(b.level * 100)); }
      update();
      b.addEventListener("levelchange", update);
    }).catch(function () {});
  }
  if (answers().length && drafts[attr("data-draft")]) { restore(drafts[attr("data-draft")]); }  // a reload
  helps();
  openStream();
  schedule();
})();
