// The heat map over the desk's map: the venue's past occupancy for a period, its legend and each zone's
// average.

import { $, announce, call, li, problemWords, say, state } from './console-common.js';
import { w } from './console-words.js';

// — The heat state.map over the state.map —

/// The venue's past occupancy for the chosen period over the desk's state.map (or taken away), with the ramp
/// as its legend and each zone's average, highest first.
export async function renderHeat() {
  if (!state.map?.ready) return;
  if (!$('heat-on').checked) {
    state.map.picker.view.setOverlay(null);
    $('heat-legend').hidden = true; $('heat-zones').hidden = true;
    return;
  }
  const days = Number($('heat-days').value), venue = state.map.picker.show.venueId;
  try {
    const heat = await call('GET', `/v1/venues/${encodeURIComponent(venue)}/heatmap?days=${days}&shape=levels`);
    state.map.picker.view.setOverlay(heat);
    const p = heat.palette;
    $('heat-ramp').style.background = `linear-gradient(to right, ${[0, 25, 50, 75, 100].map(k => p[k]).join(', ')})`;
    $('heat-caption').textContent = heat.shows ? w('heatCaption', heat.shows, days) : w('heatNone', days);
    const names = new Map(state.map.picker.venue.zones.map(z => [z.id, z.name]));
    const pct = v => `${Math.round(v * 100)}%`;
    $('heat-zones').replaceChildren(...heat.zones.filter(z => z.average !== null).sort((a, b) => b.average - a.average)
      .map(z => li(w('zoneAverage', names.get(z.id) ?? z.id, pct(z.average)), { zone: z.id })));
    $('heat-legend').hidden = false; $('heat-zones').hidden = false;
    announce($('heat-caption').textContent);
  } catch (error) {
    say('desk-message', problemWords(error));
  }
}

export function bindHeat() {
  $('heat-on').addEventListener('change', renderHeat);
  $('heat-days').addEventListener('change', renderHeat);
}
