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
  // the referee's tables page: every running game's lines, replaced as the server sends them (its
  // HTML, every text in it escaped)
  var tables = body.getAttribute("data-tables");
  if (tables && window.EventSource) {
    var board = document.getElementById("tables"), said = document.getElementById("connection");
    var feed = new EventSource(tables);
    feed.onopen = function () { said.textContent = ""; };
    feed.addEventListener("view", function (e) { board.innerHTML = e.data; });
    stops(feed, said);
  }
  // what a live stream's end says on the page: a link revoked, a viewer's bound reached, the server full
  function stops(source, said) {
    source.addEventListener("gone", function () {
      source.close();
      said.textContent = "this link no longer works";
    });
    source.addEventListener("refused", function (e) {
      source.close();
      said.textContent = e.data;
    });
    source.onerror = function () {
      said.textContent = source.readyState === 2 ? "live updates stopped (the server is full): reload the page later"
        : "reconnecting to the server\u2026";
    };
  }
  var base = body.getAttribute("data-base");
  if (!base) return;  // not a game page
  var csrf = body.getAttribute("data-csrf");
  var main = document.getElementById("view");
  var connection = document.getElementById("connection");
  var browsing = null;  // the move shown when it is not the live position
  var busy = false;
  var loads = 0;  // views fetched and handled, on the body as data-loads (tests wait for it)
  var heard = 0;  // live messages handled (fetched or not), on the body as data-heard
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
      show(res.text, mine, then, changed);
    }).catch(function () { refusal("the server does not answer"); });
  }

  // a view's HTML (a fetched one, or the one a command's answer carries) put in place of the shown one
  function show(text, mine, then, changed) {
    var fresh = document.createElement("template");
    fresh.innerHTML = text;  // the server's HTML: every text in it escaped
    var now = fresh.content.querySelector(".state"), shown = state();
    if (changed && now && shown && now.getAttribute("data-version") === shown.getAttribute("data-version") &&
        now.getAttribute("data-position") === shown.getAttribute("data-position")) return;
    shownTicket = mine;
    main.textContent = "";
    main.appendChild(fresh.content);
    setUp();
    if (then) then();
  }

  // a command's answer carrying the new view (``view=1``): shown at once, no fetch of its own; an
  // answer that is only the word (the view could not be made with it) is followed by a fetch
  function played(text) {
    if (text.charAt(0) !== "<") { load(null); return; }
    loaded();
    show(text, ++issued);
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

  // A command that ends the game (resign, a last move) is asked about first: one tap never loses a
  // game. One the seat could not take back (it shows what was hidden, or seeded chance draws next) is
  // asked about the first time in a game only: once the player knows, a placement followed by the
  // pouch's draw is what they expect (issue 43), unless they tick "keep asking me" (kept for this tab).
  var ending = {}, final = {}, said = {};
  var quietKey = "solrec-quiet " + base, askKey = "solrec-ask " + base;
  function kept(key) { try { return window.sessionStorage.getItem(key) === "1"; } catch (e) { return false; } }
  function keep(key, on) {
    try { if (on) window.sessionStorage.setItem(key, "1"); else window.sessionStorage.removeItem(key); } catch (e) { /* private mode */ }
  }
  function quiet() { return kept(quietKey) && !kept(askKey); }
  function play(command) {
    var word = command.trim().split(/\s+/)[0].toLowerCase();
    var ends = !!ending[command] || word === "resign";
    var box = document.getElementById("confirm");
    if (!box || (!ends && (!final[command] || quiet()))) { post("/play", {command: command, view: "1"}, played); return; }
    var named = "\u201c" + (said[command] || command) + "\u201d";
    document.getElementById("confirm-text").textContent = ends
      ? named + " ends the game and cannot be taken back. Play it?"
      : named + " cannot be taken back: it shows what was hidden, or chance draws next. Such moves are not asked about again in this game. Play it?";
    var check = box.querySelector("input.quiet"), label = box.querySelector("label.quiet");
    if (label) label.hidden = ends;
    if (check) check.checked = kept(askKey);
    box.hidden = false;
    var yes = box.querySelector("button.yes"), no = box.querySelector("button.no");
    var before = document.activeElement;
    function close() {
      box.hidden = true;
      if (before && before.focus && document.contains(before)) { try { before.focus({preventScroll: true}); } catch (e) { before.focus(); } }
    }
    try { no.focus({preventScroll: true}); } catch (e) { no.focus(); }
    yes.onclick = function () {
      if (!ends) { keep(quietKey, true); keep(askKey, !!(check && check.checked)); }
      box.hidden = true;
      post("/play", {command: command, view: "1"}, played);
    };
    no.onclick = close;
    box.onkeydown = function (e) { if (e.key === "Escape") { e.preventDefault(); close(); } };
  }

  // the address names the move shown (#move=N), kept as the viewer moves: a link opens that move
  function address() {
    var s = state();
    if (!s) return;
    var want = "#move=" + s.getAttribute("data-move");
    if (location.hash !== want || location.search) {  // a page drawn at ?move=N: the address is the hash's
      try { history.replaceState(null, "", location.pathname + want); } catch (e) { location.hash = want; }
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
    final = {};
    said = {};
    choices.forEach(function (c) {
      if (c.ends) ending[c.command] = true;
      if (c.final) final[c.command] = true;
      if (c.words) said[c.command] = c.words;
    });

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
    function onBoard(step) {
      if (!board) return null;
      var found = null;
      Array.prototype.forEach.call(board.querySelectorAll("[data-spot]"), function (e) {
        if (!found && e.getAttribute("data-spot") === step) found = e;
      });
      return found;
    }
    // a place on the board big enough to tap (24 CSS px, WCAG 2.5.8 target size) needs no button of its own
    function tappable(step) {
      var e = onBoard(step);
      if (!e || !e.getBoundingClientRect) return false;
      var r = e.getBoundingClientRect();
      return r.width >= 24 && r.height >= 24;
    }
    function pick(step) {
      picked.push(step);
      var cands = candidates();
      // one choice left: it is played, unless what is left to pick is a place on the board (where a
      // marble lands): that is shown first, with what it takes away, and tapped
      if (cands.length === 1 && (cands[0].steps.length === picked.length || !onBoard(cands[0].steps[picked.length]))) {
        play(cands[0].command);
        return;
      }
      draw();
    }
    // what every command of a group says before its place ("place a white marble on"), from their words
    function commonWords(options) {
      var words = options.map(function (o) { return o.cands.length === 1 && o.cands[0].words ? o.cands[0].words : null; });
      if (words.length < 2 || words.some(function (w) { return !w; })) return "";
      var head = words[0];
      words.forEach(function (w) { while (w.indexOf(head) !== 0) head = head.slice(0, -1); });
      var cut = head.lastIndexOf(" ");
      return cut > 0 ? head.slice(0, cut) : "";
    }
    function label(b, o) {  // a button's text: the command in words, its notation beside it in small type
      var c = o.cands.length === 1 ? o.cands[0] : null, words = c && c.words;
      var stepWords = !words && o.cands[0].said ? o.cands[0].said[picked.length] : "";
      if (words || stepWords) {
        b.appendChild(el("span", "words", words || stepWords));
        b.appendChild(el("span", "notation", " " + (words ? c.command : o.step)));
      } else b.appendChild(document.createTextNode(o.step));
      // a detail the words already say ("removes the black marble on d5" beside "..., removing the black
      // marble on d5") is not said twice
      var rest = c && c.detail ? c.detail.split(" ").slice(1).join(" ") : "";
      var said = words && rest.split(" ").length >= 3 && words.indexOf(rest) >= 0;
      if (c && c.detail && !said) b.appendChild(el("span", "detail", " " + c.detail));
    }
    function spots(next) {
      if (!board) return;
      var wanted = {};
      next.forEach(function (o) { wanted[o.step] = o; });
      // a place a click may pick is a button to assistive technology and the keyboard: focusable (Tab),
      // named by its step in the game's words (its group first: "fly: H14"), picked by Enter or Space
      Array.prototype.forEach.call(board.querySelectorAll("[data-spot]"), function (e) {
        var o = wanted[e.getAttribute("data-spot")];
        e.classList.toggle("spot-candidate", !!o);
        if (o && o.cands.some(function (c) { return c.steps.length === picked.length + 1; })) e.setAttribute("data-plays", "1");
        else e.removeAttribute("data-plays");
        if (o) {
          var detail = o.cands.length === 1 && o.cands[0].detail ? " (" + o.cands[0].detail + ")" : "";
          e.setAttribute("role", "button");
          e.setAttribute("tabindex", "0");
          var one = o.cands.length === 1 && o.cands[0].words;
          e.setAttribute("aria-label", one ? o.cands[0].words : (picked.length || !o.group ? "" : o.group + ": ") + o.step + detail);
        } else {
          e.removeAttribute("role");
          e.removeAttribute("tabindex");
          e.removeAttribute("aria-label");
        }
      });
      Array.prototype.forEach.call(board.querySelectorAll(".spot-picked"), function (e) {
        e.classList.remove("spot-picked");
      });
      picked.forEach(function (p) {
        Array.prototype.forEach.call(board.querySelectorAll("[data-spot]"), function (e) {
          if (e.getAttribute("data-spot") === p) e.classList.add("spot-picked");
        });
      });
      // what a command one tap from being played takes away (a jumped marble): marked before it is played
      var taken = {};
      if (picked.length) next.forEach(function (o) { o.cands.forEach(function (c) { (c.takes || []).forEach(function (t) { taken[t] = true; }); }); });
      Array.prototype.forEach.call(board.querySelectorAll("[data-spot]"), function (e) {
        e.classList.toggle("spot-taken", !!taken[e.getAttribute("data-spot")]);
      });
    }
    function draw() {
      if (!box) return;
      box.textContent = "";
      var cands = candidates(), next = nextSteps(cands);
      if (picked.length) {
        var trail = el("p", "picked");
        var first = cands[0] && cands[0].said && cands[0].said[0];
        trail.appendChild(document.createTextNode("picked: " + (first ? [first].concat(picked.slice(1)) : picked).join(" \u203a ") + " "));
        var back = el("button", "back", "back");
        back.type = "button";
        back.onclick = function () { picked.pop(); draw(); };
        trail.appendChild(back);
        box.appendChild(trail);
        cands.forEach(function (c) {  // a command complete here while longer ones go on
          if (c.steps.length === picked.length) {
            var b = el("button", "choice done");
            label(b, {cands: [c], step: c.command});
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
        // a long group beside others (Solarius Mission's exchanges) folds under its heading: the
        // other actions and the board stay near the top of a phone's screen
        if (g && groups.length > 1 && byGroup[g].length > 10) {
          section = el("details", "group many");
          section.appendChild(el("summary", "", g + " (" + byGroup[g].length + ")"));
        } else if (g) section.appendChild(el("h3", "", g));
        // every place of the group big enough to tap on the board, none with a cost or effect to read on
        // its button (a flight's fuel, a jump's removed marble): tapped there (highlighted, named for the
        // keyboard and screen readers), no grid of coordinate buttons
        if (byGroup[g].every(function (o) { return tappable(o.step) && !(o.cands.length === 1 && o.cands[0].detail); })) {
          section.classList.add("on-board");
          var n = byGroup[g].length;
          var common = commonWords(byGroup[g]);
          if (common) section.appendChild(el("p", "doing", common + "\u2026"));
          section.appendChild(el("p", "tap-board", picked.length
            ? "tap " + (n === 1 ? "the highlighted place" : "one of the " + n + " highlighted places") + " on the board:"
            : "tap " + (n === 1 ? "the highlighted place" : "one of the " + n + " highlighted places") + " on the board"));
          if (picked.length) {
            var list = el("ul", "landing");
            byGroup[g].forEach(function (o) {
              var c = o.cands.length === 1 ? o.cands[0] : null;
              list.appendChild(el("li", "", c && c.words ? c.words : o.step + (c && c.detail ? " (" + c.detail + ")" : "")));
            });
            section.appendChild(list);
          }
          box.appendChild(section);
          return;
        }
        byGroup[g].forEach(function (o) {
          var b = el("button", "choice");
          label(b, o);
          b.type = "button";
          b.setAttribute("data-step", o.step);
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
      board.onkeydown = function (e) {
        var t = e.target;
        if ((e.key !== "Enter" && e.key !== " ") || !t.classList || !t.classList.contains("spot-candidate")) return;
        e.preventDefault();
        var step = t.getAttribute("data-spot");
        pick(step);
        // the keyboard stays on the board: the next place to pick, if any, has the focus
        var next = board.querySelector(".spot-candidate"), asking = document.getElementById("confirm");
        if (next && next.focus && (!asking || asking.hidden)) next.focus();
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
    desk(s);
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

  // -- the referee's desk at an earlier move: its comment (or ruling) sent with the page's CSRF value,
  // the page staying at that move; the move list scrolled inside its box (not the page) to the move shown
  function desk(s) {
    var form = main.querySelector("form.ruling");
    if (form) form.onsubmit = function (e) {
      e.preventDefault();
      var fields = {};
      Array.prototype.forEach.call(form.elements, function (f) {
        if (f.name && ["csrf", "at", "version", "page"].indexOf(f.name) < 0) fields[f.name] = f.value;
      });
      var shown = s.getAttribute("data-live") === "1" ? null : parseInt(s.getAttribute("data-move"), 10);
      if (fields.text && fields.text.trim()) post("/note", fields, function () { browsing = shown; load(shown); });
    };
    var list = main.querySelector("ol.moves"), current = list && list.querySelector("li.current");
    if (current && list.scrollHeight > list.clientHeight) {
      list.scrollTop += current.getBoundingClientRect().top - list.getBoundingClientRect().top - list.clientHeight / 3;
    }
  }

  // -- chance entered by taps: a form's fields get pads of their values, each tap filling the next
  // field of its kind (its name without the trailing number: die1..die5, tile1..tile6; fields that
  // all offer the same values, as five dice or a deal, are one kind). A value used once (a deck's
  // card, a tile: ``data-once``, or a list of 20 or more) leaves its pad once placed, so the pad
  // shows what is still unplaced, in the game's spelling. A one-field kind (a card drawn, a colour
  // and a face) is a row of values, a tap choosing one.
  function tapToFill(f) {
    var sels = Array.prototype.slice.call(f.querySelectorAll("select"));
    function valuesOf(s) { return Array.prototype.map.call(s.options, function (o) { return o.value; }); }
    // a form with an empty pick (a row of an exchange left out) keeps its lists: the pad is for what chance names
    if (!sels.length || sels.some(function (s) { return valuesOf(s).indexOf("") >= 0; })) return;
    var same = sels.length > 1 && sels.every(function (s) { return valuesOf(s).join("\u0000") === valuesOf(sels[0]).join("\u0000"); });
    var kinds = [], byKind = {};
    sels.forEach(function (s) {
      var kind = same ? "" : s.name.replace(/\d+$/, "");
      if (!byKind[kind]) { byKind[kind] = []; kinds.push(kind); }
      byKind[kind].push(s);
    });
    var counts = {};
    kinds.forEach(function (k) { counts[k] = 0; });
    f.classList.add("tapped");
    var shown = el("p", "filled");
    shown.setAttribute("aria-live", "polite");
    var back = el("button", "back", "undo the last");
    back.type = "button";
    var order = [];  // the kinds in the order they were tapped: "undo the last" takes back the last
    var pads = {};
    function draw() {
      var filled = order.length;
      var text = sels.filter(function (s) { var k = same ? "" : s.name.replace(/\d+$/, "");
        return byKind[k].length === 1 ? counts[k] > 0 : byKind[k].indexOf(s) < counts[k]; })
        .map(function (s) { return s.value; });
      shown.textContent = filled + " of " + sels.length + (text.length ? ": " + text.join(" ") : "");
      kinds.forEach(function (k) {
        var fields = byKind[k], n = counts[k], used = {};
        var once = fields.length > 1 && (fields[0].hasAttribute("data-once") || valuesOf(fields[0]).length >= 20);
        for (var i = 0; i < n; i++) used[fields[i].value] = true;
        Array.prototype.forEach.call(pads[k].querySelectorAll("button.value"), function (b) {
          var v = b.getAttribute("data-value");
          if (fields.length === 1) { b.hidden = false; b.setAttribute("aria-pressed", n && fields[0].value === v ? "true" : "false"); }
          else b.hidden = n >= fields.length || (once && !!used[v]);
        });
      });
      back.disabled = filled === 0;
    }
    var before = f.querySelector("button[type=submit]");
    kinds.forEach(function (k) {
      var fields = byKind[k];
      var pad = el("div", "pad");
      pad.setAttribute("role", "group");
      pad.setAttribute("aria-label", fields.length > 1 ? "tap each " + (k || "one") + " in order" : "tap the " + fields[0].name);
      pads[k] = pad;
      if (kinds.length > 1) {  // the lists are folded away: each pad says what it fills
        var named = el("p", "padname", (k || fields[0].name) + (fields.length > 1 ? " (" + fields.length + ")" : ""));
        named.setAttribute("aria-hidden", "true");
        f.insertBefore(named, before);
      }
      valuesOf(fields[0]).forEach(function (v) {
        var b = el("button", "value", v);
        b.type = "button";
        b.setAttribute("data-value", v);
        b.onclick = function () {
          if (fields.length === 1) {
            fields[0].value = v;
            if (!counts[k]) { counts[k] = 1; order.push(k); }
          } else {
            if (counts[k] >= fields.length) return;
            fields[counts[k]].value = v;
            counts[k]++;
            order.push(k);
          }
          draw();
          if (order.length === sels.length) before.focus();
        };
        pad.appendChild(b);
      });
      f.insertBefore(pad, before);
    });
    back.onclick = function () {
      if (!order.length) return;
      var k = order.pop();
      counts[k]--;
      var s = byKind[k][byKind[k].length === 1 ? 0 : counts[k]];
      s.selectedIndex = 0;
      draw();
    };
    f.insertBefore(shown, f.querySelector(".padname") || pads[kinds[0]]);
    f.insertBefore(back, before);
    draw();
  }

  // -- the board zoomed: wide enough that its smallest label reads at 12 CSS px, panned by scrolling --
  var zoomed = false;  // kept across views: the board stays zoomed while the game moves on
  var fitted = false;  // the player asked for the whole board: it is not zoomed by itself again
  var auto = false;  // zoomed by itself (a hex to pick): fitted again by itself once none is
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
    var bar = button.parentNode;
    // a board whose places are all big enough to tap (SOLI2's pockets on a phone) needs no zoom: the bar goes
    var places = board.querySelectorAll("[data-spot]");
    if (!zoomed && places.length && Array.prototype.every.call(places, function (e) {
      var r = e.getBoundingClientRect();
      return r.width >= 24 && r.height >= 24;
    })) { bar.hidden = true; return; }
    bar.hidden = false;
    // a place whose tap plays a command (a flight's hex) on a board whose labels read under 12 px
    // (Solarius Mission's map on a phone): the board zooms by itself until they read at 12 px, unless
    // the player asked to fit it (a die picked first, then its action, keeps the whole board in view)
    var small = !!board.querySelector(".spot-candidate[data-plays]") && smallestLabel(svg) < 12;
    if (small && !zoomed && !fitted) { zoomed = true; auto = true; } else if (!small && auto) { zoomed = false; auto = false; }
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
    button.onclick = function () { zoomed = !zoomed; fitted = !zoomed; auto = false; apply(); };
    if (!zoomed) apply();  // fitted again by itself
    if (zoomed) {
      apply();
      // the places to pick in view inside the zoomed board's own box (the page itself stays put)
      var first = board.querySelector(".spot-candidate[data-plays]");
      if (small && first) {
        var box = board.getBoundingClientRect(), r = first.getBoundingClientRect();
        board.scrollLeft += r.left - box.left - box.width / 2 + r.width / 2;
        board.scrollTop += r.top - box.top - box.height / 2 + r.height / 2;
      }
    }
  }

  // -- live updates: the server sends this viewer's new view itself (``view=1``), or says only the
  // new position and the page fetches its own view --------------------------------------------------
  function listen() {
    if (!window.EventSource) return;
    var source = new EventSource(base + "/live?view=1");
    source.onopen = function () { connection.textContent = ""; };
    function hear() {
      heard += 1;
      body.setAttribute("data-heard", String(heard));
    }
    // a view comes when what this viewer sees changes after the stream opened (a take-back and a new
    // command leave the same length with another version): shown unless it is the one shown, or the
    // page shows an earlier move, or its own command is in flight (whose answer carries its view)
    source.addEventListener("view", function (e) {
      hear();
      if (browsing !== null || busy) return;
      loaded();
      show(e.data, ++issued, null, true);
    });
    // a plain message, on connecting (naming the version the page has just loaded), after this page's
    // own command, or where the server could not send the view: the view is fetched (its id, for a
    // seat, is the version it now sees: a page already showing it fetches nothing)
    source.onmessage = function (e) {
      hear();
      var s = state();
      if (s && e.lastEventId && e.lastEventId === s.getAttribute("data-version") && e.data === s.getAttribute("data-position")) return;
      if (browsing === null && !busy) load(null, null, true);
    };
    stops(source, connection);
  }
  // a link to a move (#move=N) opens that move (read before the page writes its own address); the
  // live position's own number opens it live
  var opening = wanted();
  setUp();
  var first = state();
  // a page the server drew at an earlier move (``?move=N``) stays there while the game goes on
  if (first && first.getAttribute("data-live") === "0") browsing = parseInt(first.getAttribute("data-move"), 10);
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
