// Each game's table module, loaded when a page first needs it (the room and the replay page). The
// server names each registered game's module in the page (the "game-tables" block, from the game
// registry: Game.table_module), so a new game's table loads with no change here.
function named() {
  const block = typeof document === "undefined" ? null : document.getElementById("game-tables");
  try {
    return block ? JSON.parse(block.textContent || "{}") : {};
  } catch {
    return {};
  }
}

export const TABLES = Object.fromEntries(
  Object.entries(named()).map(([game, url]) => [game, () => import(url)]),
);
