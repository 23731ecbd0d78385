// The contract between the room page (static/js/room.js) and a game's table module
// (static/js/tables/<game>.js). A new game's table is written against these types; room.js loads the
// module the server names for the game (Game.table_module, through tables/index.js) and uses nothing
// else from it.
//
// The room page owns: joining, the socket, presence, the lobby, host controls, chat, the action log
// (it asks the module to word each event), the turn timer, turn alerts (title, sound, vibration,
// notification) and the game-over box with the room's tally (it asks the module for the headline).
// The module owns the felt: everything drawn from the seat's view, and the move controls.
//
// Layout: the module draws the table into `root` (it scrolls with the page) and the seat's own part
// into `ctx.dock`, a strip fixed to the bottom of the screen: the status line saying whose turn it is,
// the seat's own cards (one row that scrolls sideways, so its height never changes) and every move
// control. The dock is what keeps the controls on screen at any window size; the seat's hand is its
// last row, so it does not move when other players act.
//
// Move controls: every element that sends a move carries `data-action="<the action's type>"` (the
// server's action type, e.g. "play", "pick_up", "raise", "bid", "rebuy") and a label in the page's
// language (i18n.js `t`). Moves are offered only from the state's `legal` list (turn moves) and
// `table` list (moves open at any time, e.g. a rebuy while the others play).

/**
 * A "state" message from the server (docs/protocol.md).
 * @typedef {Object} StateMessage
 * @property {number} version
 * @property {number} game_no
 * @property {Object|null} view       what this seat may see (null before the first deal)
 * @property {Object[]} legal         the seat's moves now (empty when it may not act)
 * @property {Object[]} table         moves open to the seat at any time (table games)
 * @property {number[]} to_act        [own seat] when it may act, else []
 * @property {number|null} deadline   Unix seconds, when a timer runs
 * @property {Object[]} events        new log events this seat may see
 * @property {Outcome|null} outcome
 */

/**
 * @typedef {Object} Outcome
 * @property {number[][]} placings    groups of seats, first place first (ties share a group)
 * @property {Object<string, number>} scores  by seat number (as a string)
 * @property {string} reason
 */

/**
 * What room.js gives `mount`. `seat` and `host` are live getters.
 * @typedef {Object} TableContext
 * @property {number|null} seat                 own seat, null for a spectator
 * @property {boolean} host
 * @property {HTMLElement} dock                 the fixed strip at the bottom (see above)
 * @property {(action: Object) => Promise<Object>} sendAction   resolves with the ack, rejects with {code, message}
 * @property {(seat: number|null) => string} seatName
 * @property {(error: {code: string, message?: string, template?: string, params?: object}) => string} errorText
 *   a refusal in the page's language, formatted from the catalogue by its template and values
 * @property {(text: string) => void} notice    a short message over the page
 * @property {() => Object|null} room           the last "room" message (seats, capacity, sheet, …)
 * @property {() => Object|null} info           GET /api/rooms/{room}
 * @property {() => string|null} token          the seat's token, null for a spectator
 * @property {string} roomId
 */

/**
 * What `mount` returns.
 * @typedef {Object} Table
 * @property {(state: StateMessage) => void} update   draw this state (called again on presence changes)
 * @property {(event: KeyboardEvent) => boolean} [onKey]   true when the key was used
 */

/**
 * A table module's exports.
 * @typedef {Object} TableModule
 * @property {(root: HTMLElement, ctx: TableContext) => Table} mount
 * @property {(view: Object) => number[]} waiting
 *   the seats the table waits for, from the public view (the server names only one's own seat)
 * @property {() => Array<[string, string]>} keys     [key, what it does] for the keys help
 * @property {(event: Object, seatName: (seat: number|null) => string) => string|null} describeEvent
 *   a log line for one event (null: the room's generic wording)
 * @property {(outcome: Outcome, seatName: (seat: number|null) => string, view: Object|null) => OutcomeText|null} describeOutcome
 *   the game-over headline (null: "<winners> win")
 * @property {(event: Object) => string|null} [describeAction]
 *   a seat's own move in a few words ("played 4♦ ×2", "calls 40"), shown on its seat until its next turn
 *   and (as describeEvent words it) in the table's #last-move line; null for events that are not a move
 * @property {(event: Object) => boolean} [isMove]
 *   whether an event is a player's move for the #last-move line, where a game's moves include some
 *   that describeAction leaves off the seat (default: describeAction words it)
 * @property {(view: Object|null) => string} [scoreLabel]   the heading of the result's score column (default "Score")
 * @property {(outcome: Outcome, seat: number, view: Object|null) => string} [scoreText]   a seat's result cell
 */

/**
 * @typedef {Object} OutcomeText
 * @property {string} headline      names the winner(s) (and a loser where the game has one)
 * @property {string[]} [lines]     more lines under it (e.g. a final score line)
 */

export {};
