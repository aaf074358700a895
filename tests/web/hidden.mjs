// What the page received, checked for hidden information. The page speaks Connect JSON, so every
// response body is the contract's JSON mapping (zero values omitted: a missing seat is seat 0).

const CARD_KEYS = new Set(["cardId", "cardIds", "partnerCardId", "fromCardId"]);

/** Every card id named anywhere in a message, with where it was found. */
function cardIds(value, path = "", found = []) {
  if (Array.isArray(value)) {
    value.forEach((item, index) => cardIds(item, `${path}[${index}]`, found));
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (CARD_KEYS.has(key)) {
        for (const id of Array.isArray(item) ? item : [item]) found.push({ id: Number(id), path: `${path}.${key}` });
      } else {
        cardIds(item, `${path}.${key}`, found);
      }
    }
  }
  return found;
}

/** The cards a view shows face up: market, purchased, reserved with an id, the Orient's pairs and discards. */
function visibleCards(view) {
  const visible = new Set();
  for (const row of view.market ?? [])
    for (const slot of row.slots ?? []) if (slot.cardId !== undefined) visible.add(slot.cardId);
  for (const player of view.players ?? []) {
    for (const id of player.purchasedCardIds ?? []) visible.add(id);
    for (const reserved of player.reserved ?? []) if (reserved.cardId !== undefined) visible.add(reserved.cardId);
  }
  for (const seat of view.orient?.discarded ?? []) for (const id of seat.cardIds ?? []) visible.add(id);
  return visible;
}

/**
 * The problems of one response body: a plain state; the seed of a game not over; another seat's
 * blind reserve with its card; any card named that the response's view does not show (a deck
 * card). Without a view in the response (ListLegalActions), the cards must be ones the page's
 * last view showed.
 */
export function leaks(method, body, lastView) {
  const problems = [];
  if (body.state !== undefined) problems.push(`${method} returned a plain state`);
  if (body.view?.revealedSeed !== undefined && body.view.endReason === undefined)
    problems.push(`${method} revealed the seed of a game still going on`);
  const view = body.view ?? lastView;
  if (view === undefined) return problems;
  const viewer = view.viewerSeat;
  (view.players ?? []).forEach((player, seat) => {
    for (const reserved of player.reserved ?? []) {
      if (reserved.blind && seat !== viewer && reserved.cardId !== undefined)
        problems.push(`${method}: seat ${seat}'s blind card ${reserved.cardId} shown to ${viewer ?? "a spectator"}`);
    }
  });
  const visible = visibleCards(view);
  for (const { id, path } of cardIds({
    view: body.view,
    events: body.events,
    actions: body.actions,
    legalActions: body.legalActions,
    applied: body.applied,
  })) {
    if (!visible.has(id))
      problems.push(`${method}: card ${id} at ${path} is not face up in the view (a deck or hidden card)`);
  }
  return problems;
}
