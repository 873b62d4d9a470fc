// Turning follow-up reminders on for a device (issue 15), web only. Apart from
// follow-ups-rules.ts so the board's first load does not carry them (they load with the offer).

/** Turning reminders on for a device: the board's one-time offer and the menu's state (web only). */
export const pushMessages = {
  promptTitle: 'Get follow-up reminders on this device',
  promptText:
    'LeadNest can tell you when a follow-up is due, even when the app is closed. You can turn this off in the menu at any time.',
  turnOn: 'Turn on notifications',
  notNow: 'Not now',
  laterHint: 'You can turn notifications on later from the menu.',
  menuLabel: 'Notifications',
  state: { on: 'On', off: 'Off', blocked: 'Blocked', 'needs-install': 'Off', unsupported: 'Not available' },
  onText: 'Follow-up reminders arrive on this device, even when LeadNest is closed.',
  offText: 'Turn on to get follow-up reminders on this device. They also arrive by email.',
  turnOff: 'Turn off',
  enabled: 'Notifications are on for this device.',
  disabled: 'Notifications are off for this device.',
  blockedShort: 'Notifications are blocked in this browser. The menu says how to allow them.',
  blockedText: 'Notifications for LeadNest are blocked in this browser. To allow them:',
  unblockAndroid:
    'Android (Chrome): tap the icon left of the web address, then Permissions → Notifications → Allow. Then come back here and turn them on.',
  unblockIos: 'iPhone or iPad: open Settings → Notifications → LeadNest and switch on Allow Notifications.',
  needsInstall:
    'On iPhone and iPad (iOS 16.4 or later) notifications work once LeadNest is on the Home Screen: tap Share, then Add to Home Screen, and open LeadNest from there.',
  unsupportedText: 'This browser cannot show notifications. Follow-up reminders still arrive by email.',
  failed: 'Notifications could not be turned on. Check your connection and try again.',
} as const;
