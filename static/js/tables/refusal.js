// A refused move is explained where the player looks: the dock's refusal line (a notice when the
// dock has none drawn yet). Shared by every table module.

export function showRefusal(dock, ctx, text) {
  const box = dock.querySelector(".refusal");
  if (box) {
    box.textContent = text;
    box.hidden = false;
  } else ctx.notice(text);
}

export function hideRefusal(dock) {
  const box = dock.querySelector(".refusal");
  if (box) box.hidden = true;
}

// Sends one move; true when the server took it, false when it was refused (and the reason shown).
export async function sendMove(dock, ctx, action) {
  hideRefusal(dock);
  try {
    await ctx.sendAction(action);
    return true;
  } catch (error) {
    showRefusal(dock, ctx, ctx.errorText(error));
    return false;
  }
}
