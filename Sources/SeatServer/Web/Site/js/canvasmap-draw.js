// The map's drawing (part of CanvasMap, js/canvasmap.js): stage or screen, zones with their outlines,
// rows as bars, seats with their marks, each seat's fill and ink, and the row gutter's labels. The
// proportions are the engine's (`venue.drawing`), the colours the venue's palette.

import { MARK } from './geometry.js';
import { STATUS } from './availability.js';

export class Drawing {
  /// Stage or screen, its label, and (but at the zones level) the centre line and thin zone outlines.
  drawStage(ctx, level) {
    // The best-view area (the engine's: where the view from the plan is ideal), dashed under the seats.
    const best = this.venue.bestView;
    if (best && level !== 'zones') {
      ctx.save();
      ctx.strokeStyle = this.venue.palette.selected; ctx.lineWidth = 1.5; ctx.setLineDash(this.venue.drawing.dash);
      ctx.beginPath(); ctx.roundRect(best[0], best[1], best[2], best[3], this.venue.drawing.cornerRadius + 3); ctx.stroke();
      ctx.restore();
    }
    const v = this.venue, z = this.zoom, p = v.palette, d = v.drawing, s = v.stage;
    if (s) {
      const size = Math.min(Math.max(d.stageLabelPoints, d.stageLabelPoints / z), s.width / Math.max([...s.label].length, 2),
        s.surrounded ? s.depth * 0.8 : Infinity);
      ctx.font = `${size}px sans-serif`; ctx.textAlign = 'center'; ctx.textBaseline = 'alphabetic';
      if (s.surrounded) {
        ctx.beginPath(); ctx.roundRect(s.x - s.width / 2, s.y - s.depth / 2, s.width, s.depth, d.stageCorner);
        ctx.fillStyle = p.stageFill; ctx.fill(); ctx.strokeStyle = p.stage; ctx.lineWidth = 1; ctx.stroke();
        ctx.fillStyle = p.stage; ctx.fillText(s.label, s.x, s.y + size * 0.35);
      } else {
        const bow = s.facesDown ? d.stageBow : -d.stageBow;
        ctx.beginPath(); ctx.moveTo(s.x - s.width / 2, s.y); ctx.quadraticCurveTo(s.x, s.y + bow, s.x + s.width / 2, s.y);
        ctx.strokeStyle = p.stage; ctx.lineWidth = d.stageLine; ctx.stroke();
        ctx.fillStyle = p.stage; ctx.fillText(s.label, s.x, s.y + (s.facesDown ? -8 : size + 4));
      }
    }
    if (level === 'zones') return;
    if (v.centreLine) {
      const [ax, ay, bx, by] = v.centreLine;
      ctx.beginPath(); ctx.moveTo(ax, ay); ctx.lineTo(bx, by);
      ctx.setLineDash(d.dash); ctx.strokeStyle = p.centreLine; ctx.lineWidth = 1; ctx.stroke(); ctx.setLineDash([]);
    }
    if (level === 'seats') {
      ctx.globalAlpha = d.zoneOutlineOpacity; ctx.lineWidth = 1;
      v.zones.forEach((zone, k) => { if (zone.outline.length > 4) { ctx.strokeStyle = zone.color; ctx.stroke(this.zonePaths[k]); } });
      ctx.globalAlpha = 1;
    }
  }

  /// The zones level: each zone filled (grey when nothing in it is free) with its caption and free count.
  drawZones(ctx) {
    const v = this.venue, d = v.drawing, z = this.zoom;
    ctx.globalAlpha = d.zoneOpacity;
    v.zones.forEach((zone, k) => {
      ctx.fillStyle = ctx.strokeStyle = this.overlay ? this.heatColor(this.overlay.zones[k]) : this.zoneFree[k] > 0 ? zone.color : v.palette.sold;
      ctx.fill(this.zonePaths[k]); ctx.lineWidth = 1; ctx.stroke(this.zonePaths[k]);
    });
    ctx.globalAlpha = 1;
    ctx.fillStyle = v.palette.text; ctx.textAlign = 'center'; ctx.textBaseline = 'alphabetic';
    v.zones.forEach((zone, k) => {
      // The zone's price from the show's seat prices (the engine's text), as a Maoyan overview has it.
      const price = this.prices?.zones?.[k]?.price;
      const lines = d.zoneCaption.replace('{name}', zone.name).replace('{price}', price ? `${price} · ` : '')
        .replace('{free}', String(this.zoneFree[k])).split('\n');
      // The widest line fits the zone (a CJK character counts two); the lines 1.2 sizes apart, centred together.
      let widest = 1;
      for (const line of lines) { let width = 0; for (const ch of line) width += ch.codePointAt(0) >= 0x2E80 ? 2 : 1; widest = Math.max(widest, width); }
      const size = Math.min(d.zoneCaptionPoints / z, zone.box.w * d.zoneCaptionFill / (widest * d.characterWidth));
      ctx.font = `600 ${size}px sans-serif`;
      lines.forEach((line, n) => ctx.fillText(line, zone.box.x + zone.box.w / 2,
        zone.box.y + zone.box.h / 2 + size * (0.35 + (n - (lines.length - 1) / 2) * 1.2)));
    });
  }

  /// General-admission areas at every level: the outline filled in its zone's colour (grey when full or,
  /// for a box or a party's room, taken), its name and what is free, sized to fit inside it.
  drawAreas(ctx) {
    const v = this.venue, d = v.drawing, z = this.zoom;
    if (!v.areas.length) return;
    v.areas.forEach((a, k) => {
      const free = this.areaFree?.[k] ?? 0, open = a.mode === 'places' ? free > 0 : free === a.capacity;
      const colour = open ? v.zones[a.zone].color : v.palette.sold;
      ctx.globalAlpha = d.zoneOpacity; ctx.fillStyle = colour; ctx.fill(this.areaPaths[k]);
      ctx.globalAlpha = 1; ctx.strokeStyle = colour; ctx.lineWidth = 2 / z; ctx.stroke(this.areaPaths[k]);
      const count = open ? (a.mode === 'places' ? v.areaWords.free.replace('{free}', String(free)) : v.areaWords.open) : v.areaWords.full;
      const lines = [a.name, count];
      let widest = 1;
      for (const line of lines) { let width = 0; for (const ch of line) width += ch.codePointAt(0) >= 0x2E80 ? 2 : 1; widest = Math.max(widest, width); }
      const size = Math.min(d.zoneCaptionPoints / z, a.box.w * d.zoneCaptionFill / (widest * d.characterWidth), a.box.h / 3);
      ctx.font = `600 ${size}px sans-serif`; ctx.textAlign = 'center'; ctx.textBaseline = 'alphabetic'; ctx.fillStyle = v.palette.text;
      lines.forEach((line, n) => ctx.fillText(line, a.box.x + a.box.w / 2, a.box.y + a.box.h / 2 + size * (0.35 + (n - 0.5) * 1.2)));
    });
  }

  /// Each table's top, round or long, in a light cloth edged in its zone's colour, with its name
  /// (SeatCanvas+Floor draws the same).
  drawTables(ctx) {
    const v = this.venue, z = this.zoom;
    for (const t of v.tables) {
      const b = t.box, colour = v.zones[v.zoneOf[t.from]].color;
      ctx.beginPath();
      if (t.shape === 'round') ctx.arc(b.x + b.w / 2, b.y + b.h / 2, Math.min(b.w, b.h) / 2, 0, 2 * Math.PI);
      else ctx.roundRect(b.x, b.y, b.w, b.h, v.drawing.tableCorner);
      ctx.fillStyle = v.palette.tableFill; ctx.fill();
      ctx.strokeStyle = colour; ctx.lineWidth = 1.5; ctx.stroke();
      const size = Math.min(Math.max(11 / z, 6), b.w / Math.max([...t.name].length, 2) * 1.5, b.h * 0.6);
      ctx.font = `600 ${size}px sans-serif`; ctx.textAlign = 'center'; ctx.textBaseline = 'alphabetic'; ctx.fillStyle = v.palette.text;
      ctx.fillText(t.name, b.x + b.w / 2, b.y + b.h / 2 + size * 0.35);
    }
  }

  /// The rows level: each block on screen a bar through its seats, as opaque as it is free, with its
  /// free count once the bar is big enough.
  drawRows(ctx, area) {
    const v = this.venue, d = v.drawing, z = this.zoom, size = this.rules.seatSize;
    const counts = [];
    ctx.lineWidth = size;
    v.blocks.forEach((b, k) => {
      if (b.x > area.maxX || b.x + b.w < area.minX || b.y > area.maxY || b.y + b.h < area.minY || v.isPlace[b.from]) return;
      const free = this.blockFree[k], n = b.to - b.from, last = b.to - 1;
      if (this.overlay) {
        ctx.strokeStyle = this.heatColor(this.overlay.rows[v.rowOf[b.from]]); ctx.globalAlpha = 1;
      } else {
        ctx.strokeStyle = free > 0 ? this.zoneFill[v.zoneOf[b.from]] : v.palette.sold;
        ctx.globalAlpha = free > 0 ? d.rowOpacityFloor + (1 - d.rowOpacityFloor) * free / n : 1;
      }
      ctx.beginPath();
      let px = NaN, py = NaN, points = 0;
      for (const t of [0, 0.25, 0.5, 0.75, 1]) {
        const i = b.from + Math.round((last - b.from) * t);
        if (v.x[i] === px && v.y[i] === py) continue;
        px = v.x[i]; py = v.y[i];
        if (points++ === 0) ctx.moveTo(px, py); else ctx.lineTo(px, py);
      }
      if (points === 1) ctx.lineTo(px + 0.01, py);
      ctx.stroke();
      if (size * z >= d.rowCountThickness && b.w * z >= d.rowCountLength) counts.push([k, free]);
    });
    ctx.globalAlpha = 1;
    ctx.fillStyle = v.palette.text; ctx.textAlign = 'center'; ctx.textBaseline = 'alphabetic';
    ctx.font = `${size * d.rowCountSize}px sans-serif`;
    for (const [k, free] of counts) {
      const b = v.blocks[k], mid = b.from + Math.floor((b.to - 1 - b.from) / 2);
      ctx.fillText(String(free), v.x[mid], v.y[mid] + size * d.rowCountBaseline);
    }
  }

  /// The seats level: the seats in `area` (all of them when null), one path a fill colour, then the
  /// numbers once seats are big enough to read them, then the marks.
  drawSeats(ctx, area) {
    const v = this.venue, d = v.drawing, p = v.palette, size = this.rules.seatSize, half = size / 2, r = d.cornerRadius;
    const seats = [];
    if (area) this.field.index.forEachCandidate(area.minX, area.minY, area.maxX, area.maxY, i => {
      const x = v.x[i], y = v.y[i];
      if (!v.isPlace[i] && x - half < area.maxX && area.minX < x + half && y - half < area.maxY && area.minY < y + half) seats.push(i);
    });
    else for (let i = 0; i < v.count; i++) if (!v.isPlace[i]) seats.push(i);
    const fills = new Map(), marks = [];
    for (const i of seats) {
      const fill = this.fillOf(i);
      let path = fills.get(fill);
      if (!path) { path = new Path2D(); fills.set(fill, path); }
      path.roundRect(v.x[i] - half, v.y[i] - half, size, size, r);
      if (v.marks[i]) marks.push(i);
    }
    for (const [fill, path] of fills) { ctx.fillStyle = fill; ctx.fill(path); }
    if (size * this.zoom >= this.rules.detail.labelsFrom) {
      ctx.font = `${size * d.numberSize}px sans-serif`; ctx.textAlign = 'center'; ctx.textBaseline = 'alphabetic';
      const dy = size * d.numberBaseline;
      let ink = null;
      // A seat that is not simply free shows its status's glyph (the engine's shapes), in its ink.
      const glyphs = new Map();
      for (const i of seats) {
        const want = this.inkOf(i), glyph = this.glyphOf(i);
        if (glyph) {
          if (!glyphs.has(want)) glyphs.set(want, { lines: new Path2D(), dots: new Path2D() });
          addGlyph(glyphs.get(want), p.glyphs.shapes[glyph], v.x[i], v.y[i], size);
          continue;
        }
        if (want !== ink) { ctx.fillStyle = want; ink = want; }
        ctx.fillText(v.marks[i] & MARK.wheelchair ? '♿' : v.numbers[i], v.x[i], v.y[i] + dy);
      }
      ctx.lineWidth = size * p.glyphs.width;
      for (const [want, g] of glyphs) { ctx.strokeStyle = ctx.fillStyle = want; ctx.stroke(g.lines); ctx.fill(g.dots); }
    }
    if (marks.length) {
      const couples = new Path2D(), dots = new Path2D();
      for (const i of marks) {
        if (v.marks[i] & MARK.coupleLeft) couples.roundRect(v.x[i] - half - 1.5, v.y[i] - half - 1.5, v.x[i + 1] - v.x[i] + size + 3, size + 3, r + 1.5);
        if (v.marks[i] & MARK.restrictedView) { dots.moveTo(v.x[i] + half - 1, v.y[i] - half + 3); dots.arc(v.x[i] + half - 3, v.y[i] - half + 3, 2, 0, 2 * Math.PI); }
      }
      ctx.strokeStyle = p.stroke; ctx.lineWidth = 1.5; ctx.stroke(couples);
      ctx.fillStyle = p.text; ctx.fill(dots);
    }
    if (this.sweeping.size) {
      const ring = new Path2D();
      for (const i of this.sweeping) ring.roundRect(v.x[i] - half, v.y[i] - half, size, size, r);
      ctx.strokeStyle = '#1A73E8'; ctx.lineWidth = 3 / this.zoom; ctx.stroke(ring);
    }
  }

  fillOf(i) {
    if (this.selection.has(i)) return this.venue.palette.selected;
    if (this.overlay) return this.heatColor(this.overlay.levels[i]);
    const tint = this.tints?.get(i);
    if (tint) return tint.fill;
    const s = this.statuses[i];
    return s === 0 ? this.zoneFill[this.venue.zoneOf[i]] : this.venue.palette[STATUS[s]];
  }

  /// The glyph a seat shows in place of its number (`SeatGlyph` in the engine), or null.
  glyphOf(i) {
    if (this.overlay) return null;
    return glyphName(this.venue.palette.glyphs, this.selection.has(i), this.statuses[i]);
  }

  inkOf(i) {
    if (this.selection.has(i)) return this.venue.palette.ink.selected;
    if (this.overlay) { const level = this.overlay.levels[i]; return level < 0 ? this.overlay.missingInk : this.overlay.inks[level]; }
    const tint = this.tints?.get(i);
    if (tint) return tint.ink;
    const s = this.statuses[i];
    return s === 0 ? this.zoneInk[this.venue.zoneOf[i]] : this.venue.palette.ink[STATUS[s]];
  }

  /// Row labels pinned to the left edge at their rows' heights, as the engine's gutter gives them, and
  /// along the top edge at their x for rows that run up and down the screen (its top gutter).
  renderGutter() {
    // A label a row: its text, at `at` points along the strip's axis (Y: the left one, X: the top one).
    const label = (g, axis, at) => {
      const el = document.createElement('div');
      el.className = 'gutter-label';
      el.dataset.row = g.label;
      el.textContent = g.label;
      el.style.transform = `translate${axis}(${at.toFixed(2)}px) translate${axis}(-50%)`;
      return el;
    };
    this.gutter.replaceChildren(...this.field.gutter(this.viewport).map(g => label(g, 'Y', g.y)));
    if (!this.topGutter) return;
    const top = this.field.topGutter(this.viewport).map(g => label(g, 'X', g.x));
    this.topGutter.replaceChildren(...top);
    this.topGutter.hidden = top.length === 0;
  }
}

/// A zone's outline: one closed subpath a part (`parts`: where each ends, in points; the geometry
/// document's, so a zone whose rows another zone interrupts is two outlines here as in the engine).
export function outlinePath(flat, parts = [flat.length / 2]) {
  const path = new Path2D();
  let start = 0;
  for (const end of parts) {
    for (let k = start; k < end; k++) (k === start ? path.moveTo : path.lineTo).call(path, flat[2 * k], flat[2 * k + 1]);
    path.closePath();
    start = end;
  }
  return path;
}

/// The glyph of a seat by the engine's table (`palette.glyphs.of`): null for a free seat not chosen.
export function glyphName(glyphs, selected, status) {
  if (selected) return glyphs.of.selected;
  return status === 0 ? null : glyphs.of[STATUS[status]] ?? null;
}

/// A glyph's strokes and dots (unit square, −0.5…0.5) at a seat's centre, `size` wide, added to `into`.
export function addGlyph(into, shape, x, y, size) {
  for (const line of shape.lines) {
    into.lines.moveTo(x + line[0] * size, y + line[1] * size);
    for (let k = 2; k < line.length; k += 2) into.lines.lineTo(x + line[k] * size, y + line[k + 1] * size);
  }
  for (const [dx, dy, r] of shape.dots) {
    into.dots.moveTo(x + (dx + r) * size, y + dy * size);
    into.dots.arc(x + dx * size, y + dy * size, r * size, 0, 2 * Math.PI);
  }
}
