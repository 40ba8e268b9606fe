// spacetable's service worker (served at /sw.js, scope "/"): shows a Web Push notification and opens its page
// when it is clicked. The server sends JSON {title, body, url, tag, kind}, encrypted for this browser (RFC 8291).
"use strict";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

function readPush(event) {
  if (!event.data) return {};
  try {
    const data = event.data.json();
    return data && typeof data === "object" ? data : {};
  } catch (_err) {
    return { body: event.data.text() };
  }
}

// only a path of this site is ever opened (a notification never sends the player elsewhere)
function ownUrl(url) {
  const target = new URL(typeof url === "string" ? url : "/", self.location.origin);
  return target.origin === self.location.origin ? target.href : new URL("/", self.location.origin).href;
}

self.addEventListener("push", (event) => {
  const data = readPush(event);
  const title = typeof data.title === "string" && data.title ? data.title : "spacetable";
  const options = {
    body: typeof data.body === "string" ? data.body : "",
    tag: typeof data.tag === "string" ? data.tag : undefined,
    data: { url: ownUrl(data.url) },
    renotify: Boolean(data.tag),
  };
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = ownUrl(event.notification.data && event.notification.data.url);
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of windows) {
      if (client.url === url && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(url);
  })());
});
