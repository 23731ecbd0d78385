// The JSON HTTP API (docs/protocol.md) and the per-room seat token kept in localStorage.

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || `HTTP ${status}`);
    this.status = status;
    this.code = (body && body.code) || (status === 404 ? "not_found" : "http_error");
    this.option = (body && body.option) || null;
    // A refusal's catalogue id and values, for refusalText (i18n.js).
    this.template = (body && body.template) || null;
    this.params = (body && body.params) || null;
    this.body = body;
  }
}

async function call(method, path, body, token) {
  const init = { method, headers: { Accept: "application/json" } };
  if (token) init.headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let payload = null;
  try {
    payload = await response.json();
  } catch {
    payload = null;
  }
  if (!response.ok) {
    // FastAPI's own errors put the message under "detail".
    if (payload && !payload.message && payload.detail) {
      const detail = payload.detail;
      payload = typeof detail === "string" ? { message: detail } : { ...detail };
    }
    throw new ApiError(response.status, payload);
  }
  return payload;
}

export const api = {
  games: () => call("GET", "/api/games"),
  room: (room) => call("GET", `/api/rooms/${encodeURIComponent(room)}`),
  createRoom: (body) => call("POST", "/api/rooms", body),
  join: (room, body) => call("POST", `/api/rooms/${encodeURIComponent(room)}/join`, body),
  replay: (room, gameNo, query, token) => call("GET", `/api/rooms/${encodeURIComponent(room)}/games/${gameNo}/replay?${query}`, undefined, token),
  sheets: (game) => call("GET", `/api/sheets?game=${encodeURIComponent(game)}`),
  // A saved sheet's edit token comes only with the save: keep it, changing the sheet needs it.
  saveSheet: async (body) => keepSheetToken(await call("POST", "/api/sheets", body)),
  copySheet: async (id, body) => keepSheetToken(await call("POST", `/api/sheets/${encodeURIComponent(id)}/copy`, body || {})),
  updateSheet: (id, body) => call("PUT", `/api/sheets/${encodeURIComponent(id)}`, body, sheetToken(id)),
};

const SHEET_KEY = (id) => `houserules:sheet:${id}`;

function keepSheetToken(sheet) {
  if (sheet && sheet.edit_token) localStorage.setItem(SHEET_KEY(sheet.id), sheet.edit_token);
  return sheet;
}

// The edit token of a sheet saved from this browser, or null: only then may it be changed here.
export function sheetToken(id) {
  return localStorage.getItem(SHEET_KEY(id));
}

const KEY = (room) => `houserules:room:${room}`;

// {token, seat, name, pending} for this room, or null.
export function loadSeat(room) {
  try {
    const raw = localStorage.getItem(KEY(room));
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

export function saveSeat(room, seat) {
  localStorage.setItem(KEY(room), JSON.stringify(seat));
}

export function forgetSeat(room) {
  localStorage.removeItem(KEY(room));
}

export function lastName() {
  return localStorage.getItem("houserules:name") || "";
}

export function rememberName(name) {
  localStorage.setItem("houserules:name", name);
}
