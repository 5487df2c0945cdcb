/* Boxcars web push: shows "Main, round 2 is called: table 4, ..." and opens the score
   link when tapped. The server sends {title, body, url} (tournaments/call_notices.py). */
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = { title: "Boxcars", body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(
    self.registration.showNotification(data.title || "Boxcars", {
      body: data.body || "",
      data: { url: data.url || "/" },
      tag: data.url || "boxcars-call",
    })
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(self.clients.openWindow(url));
});
