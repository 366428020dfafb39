// The page of `snowrules serve`: one seat's table, or a saved game to step through.
// Everything shown comes from the server as JSON and is put in the page as text (textContent,
// never innerHTML), so a card named <script> reads as its name. The seat's token is the link's
// fragment (#TOKEN): browsers never send a fragment to a server, and a reload keeps it.
"use strict";

const token = decodeURIComponent(location.hash.slice(1));
const $ = (id) => document.getElementById(id);
let socket = null;
let retry = 500;          // milliseconds before reconnecting; doubles up to 8 s
let watch = null;         // a saved game: {step, steps, reader}
let busy = false;         // an answer sent, the next state not yet here
let saved = null;         // a page of `replay --html`: every step inside the page, no server
let playing = null;       // the timer stepping a watched game on by itself
let spotFilter = null;    // "x,y": a cell clicked on the picture, whose options alone are shown
let last = null;          // the state drawn last (a click on the picture draws it again)

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

function say(text) { $("status").textContent = text; }

function complain(text) {
  const box = $("error");
  box.textContent = text;
  box.hidden = !text;
}

function connect() {
  const inside = $("saved");
  if (inside) {
    saved = JSON.parse(inside.textContent);
    say("a saved game");
    send({step: 0, reader: null});
    return;
  }
  if (!token) {
    say("");
    complain("This page needs the join link that `snowrules serve` printed: it ends with #TOKEN.");
    return;
  }
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  socket = new WebSocket(scheme + location.host + "/ws");
  socket.onopen = () => { retry = 500; socket.send(JSON.stringify({token})); say("connected"); };
  socket.onmessage = (event) => {
    const data = JSON.parse(event.data);
    if (data.error) { complain(data.error); busy = false; enable(); return; }
    complain("");
    busy = false;
    draw(data);
  };
  socket.onclose = (event) => {
    if (event.code === 1008 || event.code === 1009) { say("refused by the server"); return; }
    say("connection lost: trying again...");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

// A saved page answers a step itself, in the shape the server sends.
function fromSaved(message) {
  const key = message.reader === null || message.reader === undefined ? "all" : String(message.reader);
  const step = saved.steps[message.step];
  if (!step || !step[key]) return;
  const data = Object.assign({}, step[key]);
  data.account_start = 0;
  data.account = saved.accounts[key].slice(0, data.told);
  data.details = saved.details;
  if (data.picture !== null) data.picture = saved.pictures[data.picture];
  draw(data);
}

function send(message) {
  if (saved) { fromSaved(message); return; }
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function draw(data) {
  last = data;
  const cells = (data.decisions || []).flatMap((d) => d.cells || []);
  if (spotFilter && !cells.includes(spotFilter)) spotFilter = null;
  $("title").textContent = data.title;
  document.title = data.title + " - snowrules";
  if (data.kind === "watch") drawSteps(data);
  else {
    const others = data.places.filter((p) => p.name !== data.you);
    $("you").textContent = "Playing as " + data.you +
      (others.length ? " against " + others.map((p) => p.name + " (" + p.agent + ")").join(", ") : "");
  }
  drawDecisions(data);
  if (data.failure) { complain(data.failure); say("the game stopped"); }
  drawResult(data.result);
  drawZones(data.view, data.seat_names, data.kind === "watch" ? " (seen from here)" : " (you)", data.details || {});
  drawCounters(data.view.counters);
  drawPicture(data.picture, data.spots, data.decisions || []);
  drawAccount(data.account_start, data.account);
}

function drawDecisions(data) {
  const box = $("decide");
  box.replaceChildren();
  if (data.result) { say("the game is over"); return; }
  const mine = data.decisions || [];
  for (const decision of mine) {
    box.append(element("h2", "Your choice: " + decision.choice + " (" + decision.seat_name + ")"));
    if (decision.cells && data.spots) {
      const hint = element("p", spotFilter ? "At (" + spotFilter + "): choose how, or " :
        "Click a marked square of the picture, or choose below.", "hint");
      if (spotFilter) {
        const every = element("button", "show every place");
        every.type = "button";
        every.addEventListener("click", () => { spotFilter = null; draw(last); });
        hint.append(every);
      }
      box.append(hint);
    }
    const options = element("div", null, "options");
    decision.options.forEach((label, index) => {
      if (spotFilter && decision.cells && decision.cells[index] !== spotFilter) return;
      const button = element("button", label, "option");
      button.type = "button";
      if (data.details && data.details[label]) button.title = data.details[label];
      button.dataset.index = index;
      button.addEventListener("click", () => {
        if (busy) return;
        busy = true;
        disable();
        send({answer: {index, seat: decision.seat}});
      });
      options.append(button);
    });
    box.append(options);
  }
  const others = (data.waiting || []).filter((name) => !mine.some((d) => d.seat_name === name));
  if (data.kind === "watch") {
    if (data.chosen && data.chosen.length) box.append(element("p", "Chosen to get here: " + data.chosen.join("; ")));
    return;
  }
  if (mine.length) say("your turn to choose");
  else if (others.length) say("waiting for " + others.join(", "));
}

function disable() { for (const b of document.querySelectorAll("button.option, button.spot")) b.disabled = true; }
function enable() { for (const b of document.querySelectorAll("button.option, button.spot")) b.disabled = false; }

function drawResult(result) {
  const box = $("result");
  box.replaceChildren();
  box.hidden = !result;
  if (!result) return;
  const winners = result.winners.length ? result.winners.join(" and ") : "nobody";
  const titles = result.titles || null;   // the manifest's `result: title:`, one per player (null: none)
  const titled = (i) => titles && titles[i] ? ": " + titles[i] : "";
  const said = result.players.length === 1 ? result.players[0] + " score " + result.scores[0] + titled(0)  // a solo game
    : winners + (result.winners.length > 1 ? " win" : " wins");
  const passes = result.turns + " " + result.turn_word + (result.turns === 1 ? "" : "s");  // "13 rounds"
  box.append(element("h2", "The game is over after " + passes + ": " + said));
  const table = element("table");
  result.players.forEach((name, i) => {
    const row = element("tr");
    row.append(element("th", name), element("td", result.scores[i]),
      element("td", result.winners.includes(name) ? "winner" : ""));
    if (titles) row.append(element("td", titles[i] || ""));
    table.append(row);
  });
  box.append(table);
  if (result.tie) box.append(element("p", result.tie));   // what decided a shared best score
}

// Zones grouped by their owner (a label "p0.hand" belongs to seat p0), the reader's seats first.
function drawZones(view, seatNames, yours, details) {
  const box = $("zones");
  box.replaceChildren();
  const groups = new Map();
  const empty = [];
  for (const [label, content] of Object.entries(view.zones)) {
    const dot = label.indexOf(".");
    const owner = dot > 0 && seatNames.includes(label.slice(0, dot)) ? label.slice(0, dot) : "";
    if (Array.isArray(content) ? content.length === 0 : content.count === 0) { empty.push(label); continue; }
    if (!groups.has(owner)) groups.set(owner, []);
    groups.get(owner).push([owner ? label.slice(dot + 1) : label, content]);
  }
  const mine = (owner) => view.player !== null && view.seats.includes(owner);
  const rank = (owner) => (mine(owner) ? 0 : owner ? 1 : 2);
  const order = [...groups.keys()].sort((a, b) => rank(a) - rank(b));
  for (const owner of order) {
    const group = element("section", null, "group" + (mine(owner) ? " mine" : ""));
    group.append(element("h2", owner ? (mine(owner) ? owner + yours : owner) : "On the table"));
    for (const [name, content] of groups.get(owner)) {
      const zone = element("div", null, "zone");
      zone.append(element("h3", name));
      if (Array.isArray(content)) {
        // copies of one component are one card with their number ("fruit ×13")
        const counts = new Map();
        for (const card of content) counts.set(card, (counts.get(card) || 0) + 1);
        const list = element("ul", null, "cards");
        for (const [card, count, last] of mine(owner) ? [...counts] : folded(counts)) {   // one's own: each card
          const text = last !== undefined ? card + "\u2013" + last : count > 1 ? card + " \u00d7" + count : card;
          const item = element("li", text, "card");
          if (details[card]) item.title = details[card];
          list.append(item);
        }
        zone.append(list);
      } else {
        zone.append(element("p", content.count + " hidden", "hidden-count"));
      }
      group.append(zone);
    }
    box.append(group);
  }
  if (empty.length) box.append(element("p", "Empty: " + empty.join(", "), "empty"));
}

// A long stock of numbered cards reads as runs ("blue window 1\u201315"), as the terminal folds it
// (a player's own zones are listed card by card).
function folded(counts) {
  const out = [];
  for (const [card, count] of counts) {
    const match = counts.size > 12 && count === 1 ? /^(.*\D)(\d+)$/.exec(card) : null;
    const run = out.length ? out[out.length - 1] : null;
    if (match && run && run.stem === match[1] && run.high + 1 === Number(match[2])) {
      run.high += 1;
      run[2] = String(run.high);
    } else if (match) {
      const entry = [card, 1];
      entry.stem = match[1];
      entry.high = Number(match[2]);
      out.push(entry);
    } else out.push([card, count]);
  }
  return out;
}

function drawCounters(counters) {
  const box = $("counters");
  box.replaceChildren();
  // Every counter when they are few; else those not at zero (as the terminal shows them).
  const all = Object.entries(counters);
  const shown = all.length <= 24 ? all : all.filter(([, value]) => value);
  box.append(element("h2", "Counters"));
  if (shown.length < all.length) box.append(element("p", (all.length - shown.length) + " more at zero", "empty"));
  const table = element("table");
  for (const [label, value] of shown) {
    const row = element("tr");
    row.append(element("th", label), element("td", value));
    table.append(row);
  }
  box.append(table);
}

// The grid zones as an image (an SVG shown as an image runs no script), drawn half as large
// again as its own size where the page has room; over each marked spot cell a button that
// answers with the option at that cell, or shows the options there when there are several.
function drawPicture(url, spots, decisions) {
  const box = $("picture");
  box.replaceChildren();
  if (!url) return;
  const frame = element("div", null, "frame");
  const image = element("img");
  image.alt = "the grid zones";
  image.addEventListener("load", () => { image.style.width = Math.round(image.naturalWidth * 1.5) + "px"; });
  image.src = url;
  frame.append(image);
  const decision = decisions.find((d) => d.cells);
  if (spots && decision) {
    for (const [cell, [x, y, w, h]] of Object.entries(spots.cells)) {
      const indexes = decision.cells.flatMap((c, i) => (c === cell ? [i] : []));
      if (!indexes.length) continue;
      const button = element("button", null, "spot" + (cell === spotFilter ? " picked" : ""));
      button.type = "button";
      button.title = indexes.map((i) => decision.options[i]).join("\n");
      button.setAttribute("aria-label", "(" + cell + "): " + indexes.length + " way" + (indexes.length > 1 ? "s" : ""));
      button.dataset.cell = cell;
      button.style.left = (100 * x / spots.width) + "%";
      button.style.top = (100 * y / spots.height) + "%";
      button.style.width = (100 * w / spots.width) + "%";
      button.style.height = (100 * h / spots.height) + "%";
      button.addEventListener("click", () => {
        if (busy) return;
        if (indexes.length === 1) {
          busy = true;
          disable();
          spotFilter = null;
          send({answer: {index: indexes[0], seat: decision.seat}});
        } else {
          spotFilter = cell;
          draw(last);
        }
      });
      frame.append(button);
    }
  }
  box.append(frame);
}

let told = 0;   // lines of the account on the page: a state repeating some is not told twice

function drawAccount(start, lines) {
  const box = $("account");
  if (start === 0) { box.textContent = ""; told = 0; }
  const fresh = lines.slice(Math.max(0, told - start));
  if (start > told || !fresh.length) return;
  box.append(document.createTextNode(fresh.map((line) => line + "\n").join("")));
  told += fresh.length;
  box.scrollTop = box.scrollHeight;
}

// A game still being played (its log still written): a page at the last step asks for the
// newest every two seconds, and so follows the game as it goes on.
let following = null;

function drawSteps(data) {
  watch = {step: data.step, steps: data.steps, reader: data.reader};
  if (data.live && !saved && !following) {
    following = setInterval(() => {
      if (watch.step === watch.steps && !playing) send({follow: true, reader: watch.reader});
    }, 2000);
  }
  $("steps").hidden = false;
  $("where").textContent = "decision " + data.step + " of " + data.steps;
  const turns = $("turn");
  if (turns.options.length !== data.turns.length) {
    turns.replaceChildren(...data.turns.map(([turn, step]) => {
      const option = element("option", String(turn));
      option.value = String(step);
      return option;
    }));
  }
  turns.value = String((data.turns.find(([turn]) => turn === data.turn) || [0, 0])[1]);
  $("you").textContent = data.reader === null ? "Seen by everybody" : "Seen by " + data.readers[data.reader];
  const select = $("reader");
  if (select.options.length !== data.readers.length + 1) {
    select.replaceChildren(element("option", "everybody"));
    select.options[0].value = "";
    data.readers.forEach((name, i) => {
      const option = element("option", name);
      option.value = String(i);
      select.append(option);
    });
  }
  select.value = data.reader === null ? "" : String(data.reader);
  $("first").disabled = $("back").disabled = data.step === 0;
  $("next").disabled = $("last").disabled = data.step === data.steps;
  $("jump").max = String(data.steps);
  if (document.activeElement !== $("jump")) $("jump").value = String(data.step);
  if (playing && data.step === data.steps) pause();
}

function pause() {
  clearInterval(playing);
  playing = null;
  $("play").textContent = "play \u25B6";
}

function play() {
  if (playing) { pause(); return; }
  if (watch.step === watch.steps) go(0);
  playing = setInterval(() => go(watch.step + 1), Number($("pace").value));
  $("play").textContent = "pause \u23F8";
}

function go(step) {
  if (!watch) return;
  send({step: Math.max(0, Math.min(watch.steps, step)), reader: watch.reader});
}

document.addEventListener("DOMContentLoaded", () => {
  $("first").addEventListener("click", () => go(0));
  $("back").addEventListener("click", () => go(watch.step - 1));
  $("next").addEventListener("click", () => go(watch.step + 1));
  $("last").addEventListener("click", () => go(watch.steps));
  $("play").addEventListener("click", play);
  $("pace").addEventListener("change", () => { if (playing) { pause(); play(); } });
  $("jump").addEventListener("change", (event) => {
    const wanted = Number(event.target.value);
    if (Number.isInteger(wanted)) go(wanted);
  });
  $("turn").addEventListener("change", (event) => go(Number(event.target.value)));
  $("reader").addEventListener("change", (event) => {
    const value = event.target.value;
    send({step: watch.step, reader: value === "" ? null : Number(value)});
  });
  document.addEventListener("keydown", (event) => {
    if (!watch || event.target.tagName === "SELECT" || event.target.tagName === "INPUT") return;
    if (event.key === " ") { event.preventDefault(); play(); return; }
    if (event.key === "ArrowRight") go(watch.step + 1);
    else if (event.key === "ArrowLeft") go(watch.step - 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(watch.steps);
  });
  connect();
});
