// The match viewer's script: stepping through the game, and checking its dice and receipts here,
// in the reader's browser, with WebCrypto (shared/spec/dice-and-receipts.md). Nothing is fetched
// or sent: the page's Content-Security-Policy allows no connection at all.
"use strict";
(() => {
  const D = JSON.parse(document.getElementById("viewer-data").textContent);
  const R = D.record;
  const T = D.text;
  const frames = D.frames;
  const last = frames.length - 1;
  const $ = (id) => document.getElementById(id);

  // A catalogue text with its {names} filled.
  const tr = (key, params = {}) =>
    (T[key] ?? key).replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));

  // --- the checks: the recipe of dice-and-receipts.md, step by step ------------------------------

  const enc = new TextEncoder();
  const toHex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");
  // Python's bytes.fromhex: pairs of hex digits, spaces allowed between them; null if not hex.
  const unhex = (s) => {
    if (typeof s !== "string") return null;
    const clean = s.replace(/\s+/g, "");
    if (!/^([0-9a-fA-F]{2})*$/.test(clean)) return null;
    return Uint8Array.from(clean.match(/../g) || [], (h) => parseInt(h, 16));
  };
  const concat = (a, b) => { const out = new Uint8Array(a.length + b.length); out.set(a); out.set(b, a.length); return out; };
  const sha256 = async (bytes) => toHex(await crypto.subtle.digest("SHA-256", bytes));
  const hmacKey = (raw) => crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const hmac = async (key, text) => new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(text)));
  const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const show = (v) => (v === undefined ? "—" : JSON.stringify(v));
  // An input as order text: several inputs in sequence are joined by spaces (bot.record.read).
  const orderText = (given) => (Array.isArray(given) ? given.map(String).join(" ") : String(given));
  const isWithheld = (given) => isObj(given) && typeof given.receipt === "string";
  // Canonical JSON as Python writes it: sorted keys, no spaces, text as it is.
  const canonical = (v) =>
    Array.isArray(v) ? "[" + v.map(canonical).join(",") + "]"
    : isObj(v) ? "{" + Object.keys(v).sort().map((k) => JSON.stringify(k) + ":" + canonical(v[k])).join(",") + "}"
    : JSON.stringify(v);

  // A committed stream: block n is hmac_sha256(key, label + ":" + n); a die of s sides takes the
  // first 8 bytes big-endian, rejecting x >= 2^64 - 2^64 mod s, then x mod s + 1.
  class Stream {
    constructor(key, label, start = 0) { this.key = key; this.label = label; this.blocks = start; }
    async roll(sides) {
      const span = 2n ** 64n, s = BigInt(sides), limit = span - (span % s);
      for (;;) {
        const block = await hmac(this.key, this.label + ":" + this.blocks);
        this.blocks += 1;
        const x = new DataView(block.buffer).getBigUint64(0, false);
        if (x < limit) return Number(x % s) + 1;
      }
    }
  }
  const streamOf = async (seed, label, digest) => {
    const raw = await hmacKey(seed);
    if (!label.endsWith(":resolve")) return new Stream(raw, label);
    // A resolve stream's key binds the step's sealed orders: hmac(seed, "resolve:" + digest).
    return new Stream(await hmacKey(await hmac(raw, "resolve:" + digest)), label);
  };
  const draw = async (stream, sides) => { const out = []; for (const s of sides) out.push(await stream.roll(s)); return out; };

  const seatsOf = () => (Array.isArray(R.seats) ? R.seats : D.seats);
  const blockAt = (k) => { const b = k === 0 ? R.setup : (R.turns || [])[k - 1]; return isObj(b) ? b : {}; };
  const objAt = (b, name) => (isObj(b[name]) ? b[name] : {});
  const digestOf = async (receipts) =>
    sha256(enc.encode(seatsOf().filter((s) => s in receipts).map((s) => String(receipts[s])).join(",")));

  // One step's checks: [{ok, note, text}], as `python -m bot verify` words its lines.
  async function checkStep(k, secret) {
    const out = [];
    const add = (ok, key, params, note = false) => out.push({ ok, note, text: tr(key, params) });
    const b = blockAt(k), f = frames[k], v = f.v;
    const seeds = objAt(b, "seeds"), published = objAt(b, "commitments");
    for (const name of ["commitments", "seeds", "receipts", "salts"])
      if (b[name] != null && !isObj(b[name])) add(false, "check.not_object", { name });
    // 1. each seed against its commitment sha256(seed)
    for (const [phase, seed] of Object.entries(seeds)) {
      const raw = unhex(seed);
      if (raw === null) { add(false, "check.not_hex", { phase }); continue; }
      if (!(phase in published)) { add(false, "check.commitment_missing", { phase }); continue; }
      const ok = (await sha256(raw)) === published[phase];
      add(ok, ok ? "check.commitment" : "check.commitment_bad", { phase, commitment: String(published[phase]).slice(0, 12) });
    }
    // 2. each revealed order with its salt against its receipt
    const receipts = objAt(b, "receipts"), salts = objAt(b, "salts"), inputs = objAt(b, "inputs");
    const hasReceipts = Object.keys(receipts).length > 0;
    for (const [seat, given] of Object.entries(inputs)) {
      if (isWithheld(given)) {
        add(true, "check.withheld", { seat }, true);
        if (hasReceipts && given.receipt !== receipts[seat]) add(false, "check.withheld_bad", { seat });
      } else if (hasReceipts && !(seat in receipts) && !isObj(given)) add(false, "check.receipt_none", { seat });
    }
    for (const [seat, receipt] of Object.entries(receipts)) {
      const given = inputs[seat];
      if (isObj(given)) continue; // withheld: its text and salt are not public yet
      const salt = unhex(salts[seat]);
      const sealed = v.played ? v.canonical[seat] : undefined; // the order as the rules read it
      if (given === undefined || given === null) {
        if (!v.played) { add(true, "check.default_unchecked", { seat }, true); continue; }
        if (sealed === undefined) { add(false, "check.no_order", { seat }); continue; }
        const ok = salt !== null && (await sha256(concat(salt, enc.encode(sealed)))) === receipt;
        add(ok, ok ? "check.receipt_default" : "check.receipt_bad", { seat });
        continue;
      }
      if (salt === null) { add(false, "check.no_salt", { seat }); continue; }
      let ok = (await sha256(concat(salt, enc.encode(orderText(given))))) === receipt;
      // Not the sealed text itself (a hand-written record's other wording): its canonical form.
      if (!ok && sealed !== undefined) ok = (await sha256(concat(salt, enc.encode(sealed)))) === receipt;
      add(ok, ok ? "check.receipt" : "check.receipt_bad", { seat });
    }
    // 3. the orders digest: sha256 of the receipts joined by "," in seat order
    const given = b.orders_digest;
    let digest = given != null ? String(given) : hasReceipts ? await digestOf(receipts) : null;
    if (hasReceipts && given != null) {
      const ok = (await digestOf(receipts)) === String(given);
      add(ok, ok ? "check.digest" : "check.digest_bad", {});
    } else if (given == null && !hasReceipts && "resolve" in seeds && !("rolls" in b)) {
      add(false, "check.digest_missing", {});
    }
    // 4. every die of every stream, recomputed from its seed (the die sizes are the rules')
    if (v.played && b.drawn !== undefined) {
      if (!isObj(b.drawn)) add(false, "check.drawn_bad", {});
      else for (const [phase, values] of Object.entries(b.drawn)) {
        let expected;
        if (phase === "rolls") expected = v.rolls.rolls; // scripted: no seed to draw from
        else if (phase in v.sides) {
          const raw = unhex(seeds[phase]);
          expected = raw === null ? (v.sides[phase].length ? null : [])
            : await draw(await streamOf(raw, `${R.game_id ?? "replay"}:${v.turn}:${phase}`, digest), v.sides[phase]);
        }
        const ok = expected != null && same(values, expected);
        add(ok, ok ? "check.rolls" : "check.rolls_bad", { phase, rolls: show(values), expected: show(expected) });
      }
    }
    // 5. this step's draws from the secret stream (one stream for the whole game)
    if (secret.stream && v.played && v.secret.length) {
      const start = secret.count;
      const want = await draw(secret.stream, v.secret);
      secret.count += v.secret.length;
      if (Array.isArray(secret.drawn)) {
        const got = secret.drawn.slice(start, secret.count);
        const ok = same(got, want);
        add(ok, ok ? "check.secret_rolls" : "check.secret_rolls_bad", { rolls: show(got), expected: show(want) });
      }
    }
    return out;
  }

  // The game's own facts: the secret stream's commitment, the players, the handovers.
  async function checkGame(byStep) {
    const at = (k, ok, key, params, note = false) => byStep[k].push({ ok, note, text: tr(key, params) });
    const secret = { stream: null, drawn: null, count: 0 };
    const s = isObj(R.secret) ? R.secret : null;
    if (s) {
      if (s.seed == null) at(0, true, "check.secret_withheld", {}, true);
      else if (unhex(s.seed) === null) at(0, false, "check.secret_not_hex", {});
      else {
        const raw = unhex(s.seed);
        const ok = (await sha256(raw)) === s.commitment;
        if (s.commitment != null || !ok) at(0, ok, ok ? "check.secret_commitment" : "check.secret_commitment_bad", {});
        secret.stream = await streamOf(raw, `${R.game_id ?? "replay"}:0:secret`);
        secret.drawn = Array.isArray(s.drawn) ? s.drawn : null;
      }
      if (s.drawn != null && !Array.isArray(s.drawn)) at(0, false, "check.secret_drawn_bad", {});
    }
    const players = R.players, digest = R.players_digest;
    if (players == null) { if (digest != null) at(0, false, "check.players_none", {}); }
    else if (!isObj(players) || !Object.values(players).every((n) => typeof n === "string")) at(0, false, "check.players_bad", {});
    else {
      const seats = seatsOf();
      const odd = seats.filter((x) => !(x in players)).concat(Object.keys(players).filter((x) => !seats.includes(x)));
      if (odd.length) at(0, false, "check.players_seats", { seats: odd.join(", ") });
      else if (digest == null) at(0, true, "check.players_unbound", {}, true);
      else {
        const body = canonical({ game_id: R.game_id ?? "replay", players: seats.map((x) => [x, players[x]]) });
        const ok = (await sha256(enc.encode(body))) === digest;
        at(0, ok, ok ? "check.players" : "check.players_digest_bad", {});
      }
    }
    if (R.handovers != null) {
      const keys = ["step", "seat", "from", "to", "digest"];
      const list = Array.isArray(R.handovers) && R.handovers.every((h) => isObj(h) && keys.every((x) => x in h)) ? R.handovers : null;
      if (!list) at(0, false, "check.handovers_bad", {});
      else {
        const holders = isObj(players) ? { ...players } : {};
        let previous = typeof digest === "string" ? digest : null;
        let lastStep = 0;
        for (const h of list) {
          const k = Number.isInteger(h.step) && h.step >= 0 && h.step <= last ? h.step : 0;
          const params = { seat: h.seat, from: h.from, to: h.to, step: h.step };
          let ok = seatsOf().includes(h.seat) && Number.isInteger(h.step) && h.step >= 1 && h.step >= lastStep
            && h.step <= (R.turns || []).length + 1 && typeof h.from === "string" && typeof h.to === "string"
            && (!Object.keys(holders).length || holders[h.seat] === h.from);
          if (ok) {
            const body = canonical({ game_id: R.game_id ?? "replay", previous, step: h.step, seat: h.seat, from: h.from, to: h.to });
            ok = (await sha256(enc.encode(body))) === h.digest;
          }
          at(k, ok, ok ? "check.handover" : "check.handover_bad", params);
          if (!ok) break; // verify stops at the first handover it refuses
          holders[h.seat] = h.to; previous = h.digest; lastStep = h.step;
        }
      }
    }
    return secret;
  }

  // The record's claimed result against the game the rules reached (bot.record.replayer).
  function checkResult(byStep, secret) {
    const add = (ok, key, params, note = false) => byStep[last].push({ ok, note, text: tr(key, params) });
    const P = D.replay;
    if (P.complete && secret.stream && Array.isArray(secret.drawn)) {
      const extra = secret.drawn.length - secret.count;
      if (extra > 0 && P.finished) add(false, "check.secret_extra", { count: extra });
      else if (extra > 0) add(true, "check.secret_unresolved", { count: extra }, true);
      else if (extra === 0 && "blocks" in R.secret) {
        const ok = R.secret.blocks === secret.stream.blocks;
        add(ok, ok ? "check.secret_blocks" : "check.secret_blocks_bad", { blocks: show(R.secret.blocks), expected: secret.stream.blocks });
      }
    }
    const result = R.result;
    if (result == null) return;
    if (!isObj(result)) { add(false, "check.result_bad", {}); return; }
    const held = (R.turns || []).length, claimed = result.turns_resolved;
    if (claimed != null) {
      if (!Number.isInteger(claimed)) add(false, "check.result_turns_bad", { claimed: show(claimed), held });
      else if (claimed > held) add(false, "check.truncated", { claimed, held });
      else add(claimed === held, claimed === held ? "check.result_turns" : "check.result_turns_bad", { claimed, held });
    }
    const status = result.status;
    if (!P.statuses.includes(status)) { add(false, "check.result_status_bad", { status: show(status) }); return; }
    if (!P.complete) {
      if (P.stopped && P.stopped.withheld && status === "finished") add(false, "check.truncated_withheld", {});
      else add(true, "check.result_unchecked", {}, true);
      return;
    }
    const winnerText = (w) => (Array.isArray(w) ? w.join(", ") : w == null ? "—" : String(w));
    if (status !== "finished") {
      add(!P.finished, P.finished ? "check.result_over" : "check.result_status", { status, winner: winnerText(P.winner) });
      add(result.winner == null, result.winner == null ? "check.result_no_winner" : "check.result_winner_early", { winner: winnerText(result.winner) });
      return;
    }
    if (!P.finished) { add(false, "check.truncated_going", { winner: winnerText(result.winner), held }); return; }
    const claimedW = result.winner;
    const sameWinner = Array.isArray(claimedW) && Array.isArray(P.winner)
      ? same([...claimedW].map(String).sort(), [...P.winner].map(String).sort())
      : same(claimedW, P.winner) || (claimedW == null && Array.isArray(P.winner));
    add(sameWinner, sameWinner ? "check.result_winner" : "check.result_winner_bad", { winner: winnerText(claimedW), expected: winnerText(P.winner) });
    if (result.end_reason != null) {
      const ok = result.end_reason === P.ended_by;
      add(ok, ok ? "check.result_end" : "check.result_end_bad", { reason: show(result.end_reason), expected: show(P.ended_by) });
    }
    if (result.grades != null) {
      const ok = isObj(result.grades) && same(canonical(result.grades), canonical(P.grades));
      add(ok, ok ? "check.result_grades" : "check.result_grades_bad", { expected: canonical(P.grades) });
    }
  }

  let marks = null; // per step: {state: "ok" | "bad", checks: [...]} once checked
  async function verifyAll() {
    const summary = $("verify-summary");
    if (!(window.crypto && crypto.subtle)) { summary.textContent = tr("verify.unsupported"); return; }
    summary.textContent = tr("verify.running");
    $("verify-again").disabled = true;
    try {
      const byStep = frames.map(() => []);
      const secret = await checkGame(byStep);
      for (let k = 0; k <= last; k++) byStep[k].push(...(await checkStep(k, secret)));
      checkResult(byStep, secret);
      // Where the rules could not play on: a fault of the record unless a failed check before
      // it explains it (then the game simply differs from there on), as verify says it.
      const stop = D.replay.stopped;
      if (stop) {
        const failedBefore = byStep.slice(0, stop.index + 1).some((cs) => cs.some((c) => !c.ok && !c.note));
        const key = stop.withheld ? "check.withheld_part" : failedBefore ? "check.not_replayed" : "check.replay_stopped";
        byStep[stop.index].push({ ok: stop.withheld || failedBefore, note: stop.withheld || failedBefore, text: tr(key, { reason: stop.reason }) });
      }
      marks = byStep.map((checks) => ({ state: checks.some((c) => !c.ok && !c.note) ? "bad" : "ok", checks }));
      const failed = marks.map((m, k) => (m.state === "bad" ? k : -1)).filter((k) => k >= 0);
      summary.textContent = failed.length
        ? tr("verify.failed", { failed: failed.length, count: frames.length, first: stepName(failed[0]) })
        : tr("verify.ok", { count: frames.length });
      summary.className = failed.length ? "bad" : "ok";
      document.body.dataset.verified = failed.length ? "failed" : "ok";
    } catch (err) {
      summary.textContent = tr("verify.error", { reason: String(err) });
      summary.className = "bad";
      document.body.dataset.verified = "error";
    } finally {
      $("verify-again").disabled = false;
    }
    drawMarks();
    render();
  }

  // --- the page -----------------------------------------------------------------------------

  // A log line's Discord markup (**bold**, `code`) as HTML, every character of it escaped first.
  const markup = (text) => {
    const esc = String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    return esc.replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>").replace(/`([^`]+)`/g, "<code>$1</code>").replace(/__(.+?)__/g, "<u>$1</u>");
  };
  // The posts' lines start with their own bullet; the list draws one already.
  const listInto = (el, lines) => {
    el.replaceChildren(...lines.filter((line) => String(line).replace(/^• /, "").trim()).map((line) => { const li = document.createElement("li"); li.innerHTML = markup(String(line).replace(/^• /, "")); return li; }));
  };
  const stepName = (k) => (k === 0 ? tr("setup") : tr("step_name", { n: k, name: frames[k].name }));
  const nameOf = (seat) => (D.names && D.names[seat] ? `${seat} ${D.names[seat]}` : seat);

  let current = 0;
  let seatShown = null; // the private view on show (a finished game's), or null

  // A board as a picture: whole, or (bot/viewer/pictures.py) a patch: the board before it drawn
  // again (from a row on moved down by a shift, where the board grew in its middle) and the
  // tiles that changed drawn over it; that board itself whole or a patch (a few dozen deep).
  const P = D.patches || {};
  const decoded = async (uri) => { const im = new Image(); im.src = uri; await im.decode(); return im; };
  const composed = new Map(); // the last few boards put together, newest last
  async function boardURL(id) {
    if (!(id in P)) return D.images[id];
    if (composed.has(id)) return composed.get(id);
    const chain = [];
    let base = id;
    while (base in P && !composed.has(base)) { chain.push(P[base]); base = P[base].base; }
    let drawn = await decoded(composed.has(base) ? composed.get(base) : D.images[base]);
    const [T, row] = D.tiles;
    for (const patch of chain.reverse()) {
      const strip = await decoded(D.images[patch.strip]);
      const canvas = document.createElement("canvas");
      const [width, height] = patch.size;
      canvas.width = width; canvas.height = height;
      const ctx = canvas.getContext("2d");
      ctx.drawImage(drawn, 0, 0);
      if (patch.shift) {
        ctx.save();
        ctx.beginPath(); ctx.rect(0, patch.split, width, height - patch.split); ctx.clip();
        ctx.clearRect(0, patch.split, width, height - patch.split);
        ctx.drawImage(drawn, 0, patch.shift);
        ctx.restore();
      }
      const across = Math.ceil(width / T);
      patch.tiles.forEach((tile, n) => {
        const x = (tile % across) * T, y = Math.floor(tile / across) * T;
        const w = Math.min(T, width - x), h = Math.min(T, height - y);
        ctx.clearRect(x, y, w, h);
        ctx.drawImage(strip, (n % row) * T, Math.floor(n / row) * T, w, h, x, y, w, h);
      });
      drawn = canvas;
    }
    const url = drawn.toDataURL("image/png");
    composed.set(id, url);
    if (composed.size > 8) composed.delete(composed.keys().next().value);
    return url;
  }
  // Show board ``id`` in ``img`` unless ``still()`` says the reader has moved on meanwhile.
  async function showBoard(img, id, still) {
    const url = await boardURL(id);
    if (still()) img.src = url;
    return still();
  }

  function render() {
    const f = frames[current];
    $("slider").value = String(current);
    $("prev").disabled = current === 0;
    $("next").disabled = current === last;
    $("position").textContent = tr("position", { n: current, total: last });
    const heading = stepName(current) + (f.now && f.now !== f.name ? " → " + f.now : "");
    $("step-heading").textContent = heading;
    $("announce").textContent = heading;
    const img = $("board");
    const shown = current;
    if (f.board) {
      img.alt = f.alt; img.hidden = false;
      $("board-caption").textContent = f.now ? tr("board_caption", { step: f.now }) : "";
      // data-step: the step whose board is on show (a patched board is drawn first)
      showBoard(img, f.board, () => current === shown).then((ok) => { if (ok) img.dataset.step = String(shown); });
    } else {
      img.hidden = true; img.removeAttribute("src"); img.alt = "";
      $("board-caption").textContent = f.missing || "";
      img.dataset.step = String(shown);
    }
    listInto($("log"), f.log.length ? f.log : [tr("log_empty")]);
    $("orders").replaceChildren(...f.orders.map((o) => {
      const li = document.createElement("li");
      const text = o.kind === "withheld" ? tr("order.withheld", { receipt: o.receipt })
        : o.kind === "default" ? tr("order.default", { order: o.text })
        : o.kind === "kept" ? tr("order.kept", { order: o.text }) : o.text;
      li.innerHTML = `<strong>${markup(nameOf(o.seat))}</strong>: ` + markup(text);
      return li;
    }));
    if (!f.orders.length) listInto($("orders"), [tr("orders_none")]);
    $("awaited").textContent = f.awaited == null ? "" : f.awaited.length ? tr("awaited", { seats: f.awaited.map(nameOf).join(", ") }) : tr("awaited_none");
    $("tallies").replaceChildren(...f.tallies.flatMap(([name, value]) => {
      const dt = document.createElement("dt"); dt.textContent = name;
      const dd = document.createElement("dd"); dd.innerHTML = markup(value);
      return [dt, dd];
    }));
    $("tallies-section").hidden = !f.tallies.length;
    const m = marks && marks[current];
    const mark = $("step-mark");
    mark.textContent = m ? tr(m.state === "bad" ? "mark.bad" : "mark.ok") : tr("mark.pending");
    mark.className = m ? m.state : "note";
    $("checks").replaceChildren(...(m ? m.checks : []).map((c) => {
      const li = document.createElement("li");
      li.className = c.note ? "note" : c.ok ? "ok" : "bad";
      li.textContent = (c.note ? "· " : c.ok ? "✓ " : "✗ ") + c.text;
      return li;
    }));
    document.querySelectorAll("#marks a").forEach((a, k) => (k === current ? a.setAttribute("aria-current", "step") : a.removeAttribute("aria-current")));
    renderPrivate();
  }

  function renderPrivate() {
    if (!D.private) return;
    document.querySelectorAll("#private-seats button").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.seat === (seatShown ?? ""))));
    const box = $("private-view");
    let p = seatShown && frames[current].private ? frames[current].private[seatShown] : null;
    if (typeof p === "number") p = frames[p].private[seatShown]; // unchanged since that step
    if (!seatShown) { box.replaceChildren(); return; }
    const parts = [];
    const h = document.createElement("h3");
    h.textContent = tr("private.of", { seat: nameOf(seatShown), step: stepName(current) });
    parts.push(h);
    if (!p || (!p.told.length && !p.lines.length && !p.board)) {
      const none = document.createElement("p"); none.textContent = tr("private.nothing"); parts.push(none);
    } else {
      if (p.told.length) {
        const t = document.createElement("h4"); t.textContent = tr("private.told"); parts.push(t);
        const ul = document.createElement("ul"); listInto(ul, p.told); parts.push(ul);
      }
      if (p.lines.length) {
        const t = document.createElement("h4"); t.textContent = tr("private.dm"); parts.push(t);
        const ul = document.createElement("ul"); listInto(ul, p.lines); parts.push(ul);
      }
      if (p.board) {
        const img = document.createElement("img");
        const seat = seatShown, shown = current;
        showBoard(img, p.board, () => seatShown === seat && current === shown);
        img.alt = tr("private.board", { seat: nameOf(seatShown) });
        parts.push(img);
      }
    }
    box.replaceChildren(...parts);
  }

  function drawMarks() {
    $("marks").replaceChildren(...frames.map((f, k) => {
      const li = document.createElement("li");
      const a = document.createElement("a");
      const m = marks && marks[k];
      a.href = "#step-" + k;
      a.textContent = k + (m ? (m.state === "bad" ? " ✗" : " ✓") : "");
      a.className = m ? m.state : "";
      a.setAttribute("aria-label", stepName(k) + ": " + tr(m ? (m.state === "bad" ? "mark.bad" : "mark.ok") : "mark.pending"));
      li.append(a);
      return li;
    }));
  }

  function go(k, focus = false) {
    current = Math.max(0, Math.min(last, k));
    // The address keeps the step, so a link points at this moment of the game.
    if (location.hash !== "#step-" + current) history.replaceState(null, "", "#step-" + current);
    render();
    if (focus) $("step-heading").focus();
  }
  const fromHash = () => { const m = /^#step-(\d+)$/.exec(location.hash); return m ? Number(m[1]) : null; };

  function setup() {
    document.title = $("title").textContent;
    $("players").textContent = tr("players", { players: D.seats.map(nameOf).join(" · ") });
    const status = $("status");
    status.textContent = D.midgame ? tr("midgame") : D.private ? tr("finished") : "";
    status.hidden = !status.textContent;
    $("skip").textContent = tr("skip");
    $("prev").textContent = "◀ " + tr("prev");
    $("next").textContent = tr("next") + " ▶";
    $("prev").setAttribute("aria-keyshortcuts", "ArrowLeft");
    $("next").setAttribute("aria-keyshortcuts", "ArrowRight");
    $("slider-label").textContent = tr("slider");
    $("slider").max = String(last);
    $("hint").textContent = tr("keys");
    $("board-heading").textContent = tr("board");
    $("log-heading").textContent = tr("log");
    $("orders-heading").textContent = tr("orders");
    $("tallies-heading").textContent = tr("tallies");
    $("checks-heading").textContent = tr("checks");
    $("verify-heading").textContent = tr("verify.title");
    $("verify-local").innerHTML = markup(tr("verify.local"));
    $("verify-trust").textContent = tr("verify.trust");
    $("verify-again").textContent = tr("verify.button");
    if (D.private) {
      $("private").hidden = false;
      $("private-heading").textContent = tr("private");
      $("private-help").textContent = tr("private.help");
      const buttons = [null, ...D.seats].map((seat) => {
        const b = document.createElement("button");
        b.type = "button";
        b.dataset.seat = seat ?? "";
        b.textContent = seat ? nameOf(seat) : tr("private.hide");
        b.addEventListener("click", () => { seatShown = seat; renderPrivate(); });
        return b;
      });
      $("private-seats").replaceChildren(...buttons);
    }
    $("prev").addEventListener("click", () => go(current - 1));
    $("next").addEventListener("click", () => go(current + 1));
    $("slider").addEventListener("input", (e) => go(Number(e.target.value)));
    $("verify-again").addEventListener("click", verifyAll);
    document.addEventListener("keydown", (e) => {
      // The slider moves itself with the arrows; elsewhere they step through the game.
      if (e.altKey || e.ctrlKey || e.metaKey || e.target === $("slider")) return;
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
      const to = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      go(to);
    });
    window.addEventListener("hashchange", () => { const k = fromHash(); if (k !== null && k !== current) go(k); });
    drawMarks();
    const start = fromHash();
    go(start === null ? 0 : start);
    verifyAll();
  }
  setup();
})();
