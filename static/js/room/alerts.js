// Turn alerts. While it is this seat's turn the tab's title says so; when the turn starts, an
// optional short sound (off by default), a vibration where the device has one, and an opt-in
// notification while the tab is hidden. The two choices are remembered in localStorage.

import { $ } from "../dom.js";
import { t } from "../i18n.js";
import { gameTitle } from "./session.js";

const SOUND_KEY = "houserules:alert-sound";
const NOTIFY_KEY = "houserules:alert-notify";

function baseTitle(session) {
  return session.info ? `${gameTitle(session, session.info.game)} · Houserules` : "Houserules";
}

export function setTitle(session) {
  document.title = session.alerts.mine ? t("● Your turn · {title}", { title: baseTitle(session) }) : baseTitle(session);
}

export function turnAlert(page, mine) {
  const { session } = page;
  const alerts = session.alerts;
  const started = mine && !alerts.mine;
  alerts.mine = mine;
  setTitle(session);
  if (!mine && alerts.notification) {
    alerts.notification.close();
    alerts.notification = null;
  }
  if (!started) return;
  const given = { sound: false, vibrate: false, notify: false, at: session.version };
  if (localStorage.getItem(SOUND_KEY) === "on") given.sound = beep(alerts);
  if (navigator.vibrate) given.vibrate = navigator.vibrate(200) !== false;
  if (document.hidden && localStorage.getItem(NOTIFY_KEY) === "on" && window.Notification
      && Notification.permission === "granted") {
    alerts.notification = new Notification(t("Your turn"), { body: baseTitle(session), tag: `houserules-${session.roomId}` });
    alerts.notification.onclick = () => window.focus();
    given.notify = true;
  }
  alerts.given.push(given);
}

// A short two-tone chime made on the spot (no sound file to load).
function beep(alerts) {
  try {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return false;
    alerts.audio = alerts.audio || new Context();
    const audio = alerts.audio;
    if (audio.state === "suspended") audio.resume();
    const gain = audio.createGain();
    gain.connect(audio.destination);
    gain.gain.setValueAtTime(0.0001, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.2, audio.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.35);
    [660, 880].forEach((frequency, i) => {
      const tone = audio.createOscillator();
      tone.frequency.value = frequency;
      tone.connect(gain);
      tone.start(audio.currentTime + i * 0.12);
      tone.stop(audio.currentTime + 0.35);
    });
    return true;
  } catch {
    return false;
  }
}

export function setupAlerts(page) {
  const alerts = page.session.alerts;
  const sound = $("#alert-sound");
  const notify = $("#alert-notify");
  sound.checked = localStorage.getItem(SOUND_KEY) === "on";
  notify.checked = localStorage.getItem(NOTIFY_KEY) === "on";
  if (!window.Notification) notify.closest("label").hidden = true;
  sound.addEventListener("change", () => {
    localStorage.setItem(SOUND_KEY, sound.checked ? "on" : "off");
    // Browsers start audio only after a click: this one unlocks it for the turns to come.
    if (sound.checked) beep(alerts);
  });
  notify.addEventListener("change", async () => {
    if (notify.checked && window.Notification && Notification.permission !== "granted") {
      const answer = await Notification.requestPermission().catch(() => "denied");
      if (answer !== "granted") {
        notify.checked = false;
        page.notice(t("The browser does not allow notifications for this page."));
      }
    }
    localStorage.setItem(NOTIFY_KEY, notify.checked ? "on" : "off");
  });
}
