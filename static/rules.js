/* The rule book on the phone, for scoring without a connection: the deal schedule (R7–R11), the
   dealer and first bidder (R5, R13), the scorer's checks (R22, R23, R25) and points (R19, R20).
   The server stays the authority and checks everything again. The sentences come from the page
   (the `words` object, filled from a template), in the engine's words; tests/vectors.py makes
   test vectors from the Python engine that this file must pass, in the browser, in the test suite. */
(function (root) {
  "use strict";
  var DECK = 54;

  /* A sentence about the cards dealt has a form for each plural category ("1 card", "2 cards"). */
  function say(words, key, values) {
    var text = words[key];
    if (typeof text === "object") text = text[root.bluke.plural(values.cards)] || text.other;
    return text.replace(/\{(\w+)\}/g, function (all, name) { return String(values[name]); });
  }

  /* R7–R9: 13 for 2–4 players, floor(53 / players) from five players or in the extended game. */
  function topDeal(players, options) {
    return players >= 5 || options.extended ? Math.floor((DECK - 1) / players) : 13;
  }

  /* Cards dealt per hand: m…1…m, or 1…m…1 in New Jersey (R11), then the all-cards hand (R10). */
  function schedule(players, variant, options) {
    var m = topDeal(players, options), hands = [], i;
    if (variant === "new-jersey") {
      for (i = 1; i <= m; i++) hands.push(i);
      for (i = m - 1; i >= 1; i--) hands.push(i);
    } else {
      for (i = m; i >= 1; i--) hands.push(i);
      for (i = 2; i <= m; i++) hands.push(i);
    }
    if (options.all_cards_hand) hands.push(DECK / players);
    return hands;
  }

  function dealerOf(number, firstDealer, players) { return (firstDealer + number - 1) % players; }

  /* From the dealer's left round to the dealer (R5, R13). */
  function biddingOrder(dealer, players) {
    var seats = [];
    for (var i = 1; i <= players; i++) seats.push((dealer + i) % players);
    return seats;
  }

  function hasTurnUp(players, cards) { return cards * players < DECK; }
  function minBid(options) { return options.zero_bids ? 0 : 1; }

  function points(bid, taken) { return taken < bid ? -10 * bid : 10 * bid + (taken - bid); }
  function outcome(bid, taken) { return taken < bid ? "S" : taken > bid ? "O" : "P"; }

  /* One player's bid (R13, R22): a message, or null when it is allowed. */
  function checkBid(bid, cards, low, number, who, words) {
    var values = { who: who, bid: bid, cards: cards, number: number };
    if (bid > cards) return say(words, "bid_high", values);
    if (bid < low) return say(words, low === 0 ? "bid_low_zero" : "bid_low_one", values);
    return null;
  }

  /* One player's tricks taken (R23). */
  function checkTaken(taken, cards, number, who, words) {
    if (taken < 0) return say(words, "taken_low", { who: who, taken: taken });
    if (taken > cards) return say(words, "taken_range", { who: who, taken: taken, cards: cards, number: number });
    return null;
  }

  /* Every trick is won by exactly one player (R23). */
  function checkTotal(tricks, cards, number, words) {
    var total = tricks.reduce(function (a, b) { return a + b; }, 0);
    return total === cards ? null : say(words, "tricks_total", { total: total, cards: cards, number: number });
  }

  /* Bids once the hand before is complete, tricks once the bids are in (R25). */
  function checkOrder(number, step, previousComplete, bidsRecorded, words) {
    if (step === "bids" && number > 1 && !previousComplete) return say(words, "order_bids", { number: number - 1 });
    if (step === "tricks" && !bidsRecorded) return say(words, "order_tricks", { number: number });
    return null;
  }

  /* Running totals after each hand of a game document's hands (R19, R20). */
  function totals(hands, players) {
    var running = [], sums = [];
    for (var s = 0; s < players; s++) sums.push(0);
    hands.forEach(function (hand) {
      if (hand.bids && hand.tricks) sums = sums.map(function (sum, seat) { return sum + points(hand.bids[seat], hand.tricks[seat]); });
      running.push(sums.slice());
    });
    return running;
  }

  root.BlukeRules = {
    say: say, topDeal: topDeal, schedule: schedule, dealerOf: dealerOf, biddingOrder: biddingOrder,
    hasTurnUp: hasTurnUp, minBid: minBid, points: points, outcome: outcome, checkBid: checkBid,
    checkTaken: checkTaken, checkTotal: checkTotal, checkOrder: checkOrder, totals: totals
  };
})(window);
