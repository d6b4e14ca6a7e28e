// The page: `/` lists the shows (a poster strip of films, each with its times per hall), `/shows/{id}`
// is the picker for one show (js/picker.js). Everything it shows comes from the public v1 API.

import { api, ApiProblem, setChannel } from './api.js';
import { applyStatic, lang, localName, setLanguage, t } from './i18n.js';
import { PrefetchPlanner, UniformAxis } from './engine.js';
import { showPage } from './picker.js';
import { waitingRoom } from './queue.js';
import { $, detailText, el, filmMeta, stripOf } from './ui.js';

// — The show list —

async function showList() {
  $('show-list').hidden = false;
  const [shows, venues] = await Promise.all([api.shows(), api.venues()]);
  const names = Object.fromEntries(venues.map(v => [v.id, v.name]));
  const container = $('venues');
  container.replaceChildren();
  document.title = t('appTitle');
  if (shows.length === 0) { container.append(el('p', {}, t('noShows'))); return; }
  // One entry a film or event (its shows in every hall, in time order); a show that names none is its venue's.
  const venueName = s => localName(names[s.venueId] || s.venueId);
  const films = Map.groupBy(shows.sort((a, b) => a.startsAt.localeCompare(b.startsAt)),
    s => detailText(s, 'film') ?? detailText(s, 'title') ?? venueName(s));
  const posters = el('ul', { class: 'films strip', 'aria-label': t('films') });
  let k = 0;
  for (const [title, list] of films) {
    const id = `film-${k++}`, first = list[0];
    posters.append(el('li', {}, filmCard(title, first, id)));
    const section = el('section', { class: 'venue film', id, 'aria-labelledby': `${id}-title` },
      el('h3', { id: `${id}-title` }, title), el('p', { class: 'film-meta' }, filmMeta(first)));
    for (const times of Map.groupBy(list, s => s.venueId).values()) {
      section.append(el('h4', {}, detailText(times[0], 'hall') ?? venueName(times[0])), stripOf(times, null));
    }
    container.append(section);
  }
  container.prepend(posters);
  loadPostersNear(posters);
}

/// A film's card in the poster strip: its poster (loaded when near, see loadPostersNear), title and
/// format; it leads to the film's show times.
function filmCard(title, show, sectionId) {
  const poster = show.details?.poster;
  const image = poster ? el('img', { class: 'poster', alt: '', width: 120, height: 180, decoding: 'async', 'data-src': poster, 'data-poster': 'waiting' })
    : el('span', { class: 'poster poster-none', 'aria-hidden': 'true' }, title.slice(0, 2));
  return el('a', { class: 'film-card', href: `#${sectionId}`, 'aria-label': t('timesOf', title) },
    image, el('span', { class: 'film-title' }, title), el('span', { class: 'film-format' }, detailText(show, 'format') ?? ''));
}

/// Posters load as the engine's PrefetchPlanner plans (js/engine.js, held to the Swift planner by
/// vectors): those on screen, then the ones 2.5 screens ahead in the direction of the scroll and 1.5
/// behind, nearest first; one that leaves that range before it has loaded is cancelled (its request
/// dropped). The strip is a uniform axis: the cards' width, the gap, the leading padding.
function loadPostersNear(strip) {
  const cards = [...strip.children];
  if (!cards.length) return;
  const style = getComputedStyle(strip);
  const axis = new UniformAxis(cards.length, cards[0].getBoundingClientRect().width,
    parseFloat(style.columnGap) || 0, parseFloat(style.paddingLeft) || 0);
  const images = cards.map(li => li.querySelector('img[data-src]'));
  const load = i => {
    const img = images[i];
    if (!img || img.getAttribute('src')) return;
    img.dataset.poster = 'loading';
    img.onload = () => { img.dataset.poster = 'loaded'; };
    img.src = img.dataset.src;
  };
  const cancel = i => {
    const img = images[i];
    if (img && img.dataset.poster === 'loading' && !img.complete) { img.removeAttribute('src'); img.dataset.poster = 'cancelled'; }
  };
  const planner = new PrefetchPlanner();
  let last = strip.scrollLeft, queued = false;
  const frame = () => {
    queued = false;
    const offset = strip.scrollLeft, length = strip.clientWidth;
    const [first, end] = axis.range(offset, offset + length);
    for (let i = first; i < end; i++) load(i);
    for (const [kind, i] of planner.update(axis, offset, length, offset - last)) (kind === 'prefetch' ? load : cancel)(i);
    last = offset;
  };
  strip.addEventListener('scroll', () => { if (!queued) { queued = true; requestAnimationFrame(frame); } }, { passive: true });
  frame();
}

async function main() {
  applyStatic();
  const match = /^\/shows\/([^/]+)\/?$/.exec(location.pathname);
  $('language').onclick = () => { setLanguage(lang() === 'zh' ? 'en' : 'zh'); main(); };
  try {
    if (match) {
      const showId = decodeURIComponent(match[1]), channel = new URLSearchParams(location.search).get('channel');
      // A partner's page (its channel's key): its allocation, past the public's waiting room. Any other
      // show whose sale has a waiting room: the line first, the map once the buyer is let in.
      setChannel(showId, channel);
      if (!channel) await waitingRoom(showId);
      await showPage(showId);
    } else {
      await showList();
    }
  } catch (error) {
    const box = $('page-error');
    box.hidden = false;
    box.textContent = error instanceof ApiProblem ? `${error.problem.title}: ${error.problem.detail ?? ''}` : String(error);
  }
}

main();
