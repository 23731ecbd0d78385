// Each game's table module, loaded when a page first needs it (the room and the replay page).
export const TABLES = {
  palace: () => import("./palace.js"),
  holdem: () => import("./holdem.js"),
  thousand: () => import("./thousand.js"),
};
