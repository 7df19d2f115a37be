// solrec serve: the game page's script. Served by the server itself (the Content-Security-Policy
// allows no other script and no inline one). It never builds HTML from text: the server writes the
// view (escaped), and the script only adds buttons whose labels are set as text.
"use strict";
(function () {
  var body = document.body;
  // the links page: copy a link to the clipboard (a message to a phone)
  Array.prototype.forEach.call(document.querySelectorAll("button.copy"), function (b) {
    b.onclick = function () {
      var text = b.getAttribute("data-copy");
      var done = function () { b.textContent = "copied"; };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, function () { select(b); });
      } else { select(b); }
    };
  });
  function select(b) {  // no clipboard (plain http on the network): the link selected, to copy by hand
    var link = b.parentNode.querySelector("a");
    var range = document.createRange();
    range.selectNodeContents(link);
    var sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    try { document.execCommand("copy"); b.textContent = "copied"; } catch (e) { b.textContent = "selected: copy it"; }
  }
  var base = body.getAttribute("data-base");
  if (!base) return;  // not a game page
  var csrf = body.getAttribute("data-csrf");
  var main = document.getElementById("view");
  var connection = document.getElementById("connection");
  var browsing = null;  // the move shown when it is not the live position
  var busy = false;
  var loads = 0;  // views fetched and handled, on the body as data-loads (tests wait for it)
  var issued = 0, shownTicket = 0;  // the last load started, and the one whose view is shown

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function state() { return main.querySelector(".state"); }
  function refusal(text) {
    var p = document.getElementById("refusal");
    if (p) p.textContent = text || "";
  }

  // -- the view: fetched again whenever the game moves ------------------------------------------
  // ``changed``: replace the view only when what this viewer sees moved (its version) (a live message comes on every
  // reconnection too: a refusal shown, or a piece picked, stays while nothing changed)
  // Loads may overlap (a command's answer and the live message it causes): a view fetched earlier than
  // one already shown is dropped, so the view never steps back (nor is replaced under a click).
  // ``move``: the move to show (null: the live position)
  function load(move, then, changed) {
    var url = base + "/view" + (move === null || move === undefined ? "" : "?move=" + move);
    var mine = ++issued;
    fetch(url, {credentials: "same-origin", cache: "no-store"}).then(function (r) {
      return r.text().then(function (t) { return {ok: r.ok, text: t}; });
    }).then(function (res) {
      loaded();
      if (mine < shownTicket) return;
      if (!res.ok) { refusal("could not load the position"); return; }
      var fresh = document.createElement("template");
      fresh.innerHTML = res.text;  // the server's HTML: every text in it escaped
      var now = fresh.content.querySelector(".state"), shown = state();
      if (changed && now && shown && now.getAttribute("data-version") === shown.getAttribute("data-version") &&
          now.getAttribute("data-position") === shown.getAttribute("data-position")) return;
      shownTicket = mine;
      main.textContent = "";
      main.appendChild(fresh.content);
      setUp();
      if (then) then();
    }).catch(function () { refusal("the server does not answer"); });
  }

  function loaded() {
    loads += 1;
    body.setAttribute("data-loads", String(loads));
  }

  function post(path, fields, done, failed) {
    if (busy) return;
    var s = state();
    var data = new URLSearchParams();
    data.append("csrf", csrf);
    data.append("at", s.getAttribute("data-position"));
    data.append("version", s.getAttribute("data-version"));
    Object.keys(fields).forEach(function (k) { data.append(k, fields[k]); });
    busy = true;
    body.classList.add("busy");
    fetch(base + path, {method: "POST", body: data, credentials: "same-origin"}).then(function (r) {
      return r.text().then(function (t) { return {status: r.status, text: t}; });
    }).then(function (res) {
      busy = false;
      body.classList.remove("busy");
      if (res.status === 200) {
        if (done) done(res.text); else load(null);
      } else if (res.status === 409) {
        load(null, function () { refusal(res.text); });
      } else {
        if (failed) failed();
        refusal(res.text);
      }
    }).catch(function () {
      busy = false;
      body.classList.remove("busy");
      refusal("the server does not answer: was the command stored? the page shows the position once it is back");
    });
  }

  // A command that ends the game (resign) is asked about first: one tap never loses a game.
  var ending = {};
  function play(command) {
    var word = command.trim().split(/\s+/)[0].toLowerCase();
    if (!ending[command] && word !== "resign") { post("/play", {command: command}); return; }
    var box = document.getElementById("confirm");
    if (!box) { post("/play", {command: command}); return; }
    document.getElementById("confirm-text").textContent =
      "\u201c" + command + "\u201d ends the game and cannot be taken back. Play it?";
    box.hidden = false;
    var yes = box.querySelector("button.yes"), no = box.querySelector("button.no");
    no.focus();
    yes.onclick = function () { box.hidden = true; post("/play", {command: command}); };
    no.onclick = function () { box.hidden = true; };
  }

  // the address names the move shown (#move=N), kept as the viewer moves: a link opens that move
  function address() {
    var s = state();
    if (!s) return;
    var want = "#move=" + s.getAttribute("data-move");
    if (location.hash !== want) {
      try { history.replaceState(null, "", want); } catch (e) { location.hash = want; }
    }
  }
  function wanted() {
    var m = /^#move=(\d{1,9})$/.exec(location.hash);
    return m ? parseInt(m[1], 10) : null;
  }

  // -- choices: click a piece, then one of its destinations ---------------------------------------
  function setUp() {
    var s = state();
    if (!s) return;
    address();
    var box = document.getElementById("choices");
    var choices = box ? JSON.parse(box.getAttribute("data-choices")) : [];
    var picked = [];
    var board = main.querySelector(".board");
    ending = {};
    choices.forEach(function (c) { if (c.ends) ending[c.command] = true; });

    function candidates() {
      return choices.filter(function (c) {
        for (var i = 0; i < picked.length; i++) if (c.steps[i] !== picked[i]) return false;
        return true;
      });
    }
    function nextSteps(cands) {
      var seen = {}, out = [];
      cands.forEach(function (c) {
        if (c.steps.length > picked.length) {
          var step = c.steps[picked.length];
          if (!seen[step]) { seen[step] = true; out.push({step: step, group: c.group, cands: []}); }
        }
      });
      out.forEach(function (o) {
        o.cands = cands.filter(function (c) { return c.steps[picked.length] === o.step; });
      });
      return out;
    }
    function pick(step) {
      picked.push(step);
      var cands = candidates();
      if (cands.length === 1) { play(cands[0].command); return; }  // one choice left: it is played
      draw();
    }
    function spots(next) {
      if (!board) return;
      var wanted = {};
      next.forEach(function (o) { wanted[o.step] = true; });
      Array.prototype.forEach.call(board.querySelectorAll("[data-spot]"), function (e) {
        var on = !!wanted[e.getAttribute("data-spot")];
        e.classList.toggle("spot-candidate", on);
      });
      Array.prototype.forEach.call(board.querySelectorAll(".spot-picked"), function (e) {
        e.classList.remove("spot-picked");
      });
      picked.forEach(function (p) {
        Array.prototype.forEach.call(board.querySelectorAll("[data-spot]"), function (e) {
          if (e.getAttribute("data-spot") === p) e.classList.add("spot-picked");
        });
      });
    }
    function draw() {
      if (!box) return;
      box.textContent = "";
      var cands = candidates(), next = nextSteps(cands);
      if (picked.length) {
        var trail = el("p", "picked");
        trail.appendChild(document.createTextNode("picked: " + picked.join(" \u203a ") + " "));
        var back = el("button", "back", "back");
        back.type = "button";
        back.onclick = function () { picked.pop(); draw(); };
        trail.appendChild(back);
        box.appendChild(trail);
        cands.forEach(function (c) {  // a command complete here while longer ones go on
          if (c.steps.length === picked.length) {
            var b = el("button", "choice done", c.command);
            b.type = "button";
            b.onclick = function () { play(c.command); };
            box.appendChild(b);
          }
        });
      }
      var groups = [], byGroup = {};
      next.forEach(function (o) {
        var g = picked.length ? "" : o.group;
        if (!byGroup[g]) { byGroup[g] = []; groups.push(g); }
        byGroup[g].push(o);
      });
      groups.forEach(function (g) {
        var section = el("div", "group");
        if (g) section.appendChild(el("h3", "", g));
        byGroup[g].forEach(function (o) {
          var b = el("button", "choice", o.step);
          b.type = "button";
          b.setAttribute("data-step", o.step);
          if (o.cands.length === 1 && o.cands[0].detail) b.appendChild(el("span", "detail", " " + o.cands[0].detail));
          b.onclick = function () { pick(o.step); };
          section.appendChild(b);
        });
        box.appendChild(section);
      });
      spots(next);
    }
    if (board) {
      board.onclick = function (e) {
        var t = e.target;
        while (t && t !== board && !(t.getAttribute && t.getAttribute("data-spot") !== null)) t = t.parentNode;
        if (!t || t === board || !t.classList.contains("spot-candidate")) return;
        pick(t.getAttribute("data-spot"));
      };
    }
    draw();

    // forms: a command of picked parts
    Array.prototype.forEach.call(main.querySelectorAll("form.pick"), tapToFill);
    Array.prototype.forEach.call(main.querySelectorAll("form.pick"), function (f) {
      f.onsubmit = function (e) {
        e.preventDefault();
        var text = f.getAttribute("data-template");
        Array.prototype.forEach.call(f.querySelectorAll("select"), function (sel) {
          text = text.split("{" + sel.name + "}").join(sel.value);
        });
        play(text);
      };
    });
    var typed = main.querySelector("form.notation");
    if (typed) typed.onsubmit = function (e) {
      e.preventDefault();
      var text = typed.elements.command.value.trim();
      if (text) play(text);
    };
    var undo = main.querySelector("button.undo");
    if (undo) undo.onclick = function () { post("/undo", {}); };
    // a seat's hint: the bot's suggestion for this position, shown beside the button (nothing played)
    var hint = main.querySelector("button.hint");
    if (hint) hint.onclick = function () {
      var out = main.querySelector("#hint");
      out.textContent = "the bot is thinking\u2026";
      post("/hint", {}, function (text) { out.textContent = text; }, function () { out.textContent = ""; });
    };
    var fork = main.querySelector("button.fork");
    if (fork) fork.onclick = function () {
      post("/fork", {}, function (id) { window.location.href = "/g/" + encodeURIComponent(id); });
    };
    var note = main.querySelector("form.note");
    if (note) note.onsubmit = function (e) {
      e.preventDefault();
      var text = note.elements.text.value.trim();
      var fields = {text: text};
      if (note.elements.mark) fields.mark = note.elements.mark.value;
      if (text) post("/note", fields);
    };
    Array.prototype.forEach.call(main.querySelectorAll("a.goto"), function (a) {
      a.onclick = function (e) {
        e.preventDefault();
        var at = parseInt(a.getAttribute("data-at"), 10);
        browsing = at === parseInt(s.getAttribute("data-end"), 10) ? null : parseInt(a.getAttribute("data-move"), 10);
        load(browsing);
      };
    });
    setUpZoom(board);
    var rematch = main.querySelector("button.rematch");
    if (rematch) rematch.onclick = function () {
      post("/rematch", {}, function (id) { window.location.href = "/g/" + encodeURIComponent(id); });
    };
    var live = main.querySelector("button.golive");
    if (live) live.onclick = function () { browsing = null; load(null); };
  }

  // -- chance entered by taps: a form of several fields with the same values (five dice, a deal, a
  // whole deck) gets a pad of those values; each tap fills the next field. A deck's cards are each
  // used once, so a card placed leaves the pad (the cards still unplaced stay, in the game's spelling).
  function tapToFill(f) {
    var sels = f.querySelectorAll("select");
    if (sels.length < 2) return;
    var values = Array.prototype.map.call(sels[0].options, function (o) { return o.value; });
    var same = Array.prototype.every.call(sels, function (s) {
      return Array.prototype.map.call(s.options, function (o) { return o.value; }).join("\u0000") === values.join("\u0000");
    });
    if (!same) return;
    var once = values.length >= 20;  // a deck: each card once (dice repeat)
    var filled = 0;
    f.classList.add("tapped");
    var pad = el("div", "pad");
    pad.setAttribute("role", "group");
    pad.setAttribute("aria-label", "tap each in order");
    var shown = el("p", "filled");
    shown.setAttribute("aria-live", "polite");
    var back = el("button", "back", "undo the last");
    back.type = "button";
    function draw() {
      var used = {};
      for (var i = 0; i < filled; i++) used[sels[i].value] = true;
      shown.textContent = filled + " of " + sels.length + (filled ? ": " + Array.prototype.slice.call(sels, 0, filled)
        .map(function (s) { return s.value; }).join(" ") : "");
      Array.prototype.forEach.call(pad.querySelectorAll("button.value"), function (b) {
        b.hidden = filled >= sels.length || (once && !!used[b.getAttribute("data-value")]);
      });
      back.disabled = filled === 0;
    }
    values.forEach(function (v) {
      var b = el("button", "value", v);
      b.type = "button";
      b.setAttribute("data-value", v);
      b.onclick = function () {
        if (filled >= sels.length) return;
        sels[filled].value = v;
        filled++;
        draw();
        if (filled === sels.length) f.querySelector("button[type=submit]").focus();
      };
      pad.appendChild(b);
    });
    back.onclick = function () { if (filled) { filled--; draw(); } };
    var before = f.querySelector("button[type=submit]");
    f.insertBefore(shown, before);
    f.insertBefore(pad, before);
    f.insertBefore(back, before);
    draw();
  }

  // -- the board zoomed: wide enough that its smallest label reads at 12 CSS px, panned by scrolling --
  var zoomed = false;  // kept across views: the board stays zoomed while the game moves on
  function smallestLabel(svg) {
    var box = svg.viewBox && svg.viewBox.baseVal, least = Infinity;
    if (!box || !box.width) return 12;
    var scale = svg.getBoundingClientRect().width / box.width;
    Array.prototype.forEach.call(svg.querySelectorAll("text"), function (t) {
      var size = parseFloat(window.getComputedStyle(t).fontSize);
      if (size > 0 && t.textContent.trim()) least = Math.min(least, size * scale);
    });
    return least === Infinity ? 12 : least;
  }
  function setUpZoom(board) {
    if (!board) return;
    var button = board.querySelector("button.zoom"), svg = board.querySelector("svg");
    if (!button || !svg) return;
    function apply() {
      svg.style.width = "";
      board.classList.toggle("zoomed", zoomed);
      button.setAttribute("aria-pressed", zoomed ? "true" : "false");
      button.textContent = zoomed ? "fit the board to the screen" : "zoom the board";
      if (zoomed) {
        var factor = Math.max(1.5, Math.ceil(12.5 / smallestLabel(svg) * 10) / 10);
        svg.style.width = (factor * 100) + "%";
        svg.setAttribute("tabindex", "0");
      } else {
        svg.removeAttribute("tabindex");
      }
    }
    button.onclick = function () { zoomed = !zoomed; apply(); };
    if (zoomed) apply();
  }

  // -- live updates: the server says only the new position; the page fetches its own view ----------
  function listen() {
    if (!window.EventSource) return;
    var source = new EventSource(base + "/live");
    source.onopen = function () { connection.textContent = ""; };
    // a message comes when what this viewer sees changes (a take-back and a new command leave the
    // same length with another version), and once on connecting: the view is fetched again each time
    source.onmessage = function () {
      if (browsing === null && !busy) load(null, null, true);
    };
    source.addEventListener("gone", function () {
      source.close();
      connection.textContent = "this game is no longer stored";
    });
    source.onerror = function () { connection.textContent = "reconnecting to the server\u2026"; };
  }
  // a link to a move (#move=N) opens that move (read before the page writes its own address); the
  // live position's own number opens it live
  var opening = wanted();
  setUp();
  var first = state();
  if (opening !== null && first && String(opening) !== first.getAttribute("data-move")) {
    browsing = opening;
    load(opening, null);
  }
  window.addEventListener("hashchange", function () {
    var m = wanted(), s = state();
    if (m !== null && s && String(m) !== s.getAttribute("data-move")) { browsing = m; load(m); }
  });
  listen();
})();
