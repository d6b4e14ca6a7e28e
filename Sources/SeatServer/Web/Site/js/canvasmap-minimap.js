// The map's overview (part of CanvasMap, js/canvasmap.js): the venue small in a corner, the part on
// screen as a rectangle; every seat for a hall, the zones for a big venue.

/// Up to this many seats the minimap shows every seat; past it, the zones.
const MINIMAP_SEATS = 3000;

export class Minimap {
  /// The overview: the venue small (every seat for a hall, the zones for a big venue: redrawn when
  /// statuses changed) and the part on screen as a rectangle.
  renderMinimap(statusesChanged) {
    const m = this.minimap;
    if (m.hidden || !this.venue) return;
    const v = this.venue, w = m.clientWidth || 160, h = m.clientHeight || 120, dpr = this.dpr;
    if (m.width !== Math.round(w * dpr) || m.height !== Math.round(h * dpr)) { m.width = Math.round(w * dpr); m.height = Math.round(h * dpr); this.miniPicture = null; }
    const scale = Math.min(w / v.contentW, h / v.contentH), ctx = this.miniCtx;
    if (!this.miniPicture || statusesChanged) {
      const picture = this.miniPicture ?? new OffscreenCanvas(m.width, m.height);
      const pc = picture.getContext('2d');
      pc.setTransform(1, 0, 0, 1, 0, 0);
      pc.clearRect(0, 0, picture.width, picture.height);
      pc.setTransform(scale * dpr, 0, 0, scale * dpr, 0, 0);
      // Standing areas as their outlines (open or full, as the map draws them) and tables' tops: their
      // places all stand at the area's centre, a dot that says nothing.
      v.areas.forEach((a, k) => {
        const free = this.areaFree?.[k] ?? 0, open = a.mode === 'places' ? free > 0 : free === a.capacity;
        pc.globalAlpha = v.drawing.zoneOpacity; pc.fillStyle = open ? v.zones[a.zone].color : v.palette.sold; pc.fill(this.areaPaths[k]);
        pc.globalAlpha = 1;
      });
      for (const t of v.tables) {
        pc.fillStyle = v.palette.tableFill; pc.strokeStyle = v.zones[v.zoneOf[t.from]].color; pc.lineWidth = 1.5;
        pc.beginPath();
        if (t.shape === 'round') pc.arc(t.box.x + t.box.w / 2, t.box.y + t.box.h / 2, Math.min(t.box.w, t.box.h) / 2, 0, 2 * Math.PI);
        else pc.rect(t.box.x, t.box.y, t.box.w, t.box.h);
        pc.fill(); pc.stroke();
      }
      if (v.count <= MINIMAP_SEATS) {
        const size = this.rules.seatSize;
        for (let i = 0; i < v.count; i++) {
          if (v.isPlace[i]) continue;
          pc.fillStyle = this.fillOf(i); pc.fillRect(v.x[i] - size / 2, v.y[i] - size / 2, size, size);
        }
      } else {
        pc.globalAlpha = 0.5;
        v.zones.forEach((zone, k) => { pc.fillStyle = this.zoneFree[k] > 0 ? zone.color : v.palette.sold; pc.fill(this.zonePaths[k]); });
        pc.globalAlpha = 1;
      }
      this.miniPicture = picture;
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, m.width, m.height);
    ctx.drawImage(this.miniPicture, 0, 0);
    const r = this.viewport.visibleRect();
    ctx.setTransform(scale * dpr, 0, 0, scale * dpr, 0, 0);
    ctx.fillStyle = 'rgb(26 115 232 / .12)'; ctx.fillRect(r.minX, r.minY, r.maxX - r.minX, r.maxY - r.minY);
    ctx.strokeStyle = '#1A73E8'; ctx.lineWidth = 2 / scale; ctx.strokeRect(r.minX, r.minY, r.maxX - r.minX, r.maxY - r.minY);
    // The rectangle in content units, for tests and tools.
    m.dataset.viewport = [r.minX, r.minY, r.maxX - r.minX, r.maxY - r.minY].map(n => n.toFixed(1)).join(',');
  }
}
