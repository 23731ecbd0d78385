// High card's table (tests/example_game): the whole contract of static/js/tables/contract.js in a
// small module. The server names it in the page (/static/games/highcard/table.js).
import { h, replace } from "/static/js/dom.js";
import { cardEl, cardName } from "/static/js/cards.js";
import { sendMove } from "/static/js/tables/refusal.js";

export function waiting(view) {
  return view ? view.to_act : [];
}

export function mount(root, ctx) {
  const felt = h("div", { class: "felt highcard" });
  const dock = h("div", { class: "dock-highcard" });
  replace(root, felt);
  replace(ctx.dock, dock);
  return {
    update(state) {
      const view = state.view;
      if (!view) return;
      const taken = view.taken.map((n, seat) => `${ctx.seatName(seat)}: ${n}`).join(" · ");
      replace(felt,
        h("div", { class: "center" }, ...view.table.map((card) => cardEl(card))),
        h("p", { class: "rounds" }, taken));
      const plays = state.legal.filter((action) => action.type === "play");
      const hand = (view.hand || []).map((card) => {
        const play = plays.find((action) => action.card === card);
        if (!play) return cardEl(card);
        const button = cardEl(card, { button: true, extra: { "data-action": "play" } });
        button.addEventListener("click", () => sendMove(dock, ctx, play));
        return button;
      });
      replace(dock, h("div", { class: "hand card-row own" }, ...hand));
    },
  };
}

export function keys() {
  return [];
}

export function describeEvent(event, seatName) {
  switch (event.type) {
    case "played":
      return `${seatName(event.seat)}: ${cardName(event.card)}`;
    case "round_taken":
      return event.seat === null ? "=" : `${seatName(event.seat)} ✓`;
    default:
      return null;
  }
}

export function describeOutcome() {
  return null;
}
