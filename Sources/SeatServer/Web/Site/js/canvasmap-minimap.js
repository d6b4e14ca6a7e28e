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
      if (v.count <= MINIMAP_SEATS) {
        const size = this.rules.seatSize;
        for (let i = 0; i < v.count; i++) { pc.fillStyle = this.fillOf(i); pc.fillRect(v.x[i] - size / 2, v.y[i] - size / 2, size, size); }
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
