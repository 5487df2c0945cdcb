/* The "Notify me on this device" button: registers push-sw.js, asks the browser for a
   push subscription with the site's VAPID public key and posts it to the API (which
   accepts only a known push service's endpoint, and refuses with 409 an endpoint another
   account holds: then this device gets a fresh one). Shown only where the browser
   supports push (the button starts hidden). */
(function () {
  const button = document.getElementById("push-subscribe");
  const status = document.getElementById("push-status");
  if (!button || !("serviceWorker" in navigator) || !("PushManager" in window)) return;
  button.hidden = false;

  function keyBytes(base64url) {
    const padded = base64url + "=".repeat((4 - (base64url.length % 4)) % 4);
    const raw = atob(padded.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  }

  function csrfToken() {
    const field = button.parentElement.querySelector("[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function post(subscription) {
    return fetch(button.dataset.api, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(subscription.toJSON()),
    });
  }

  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const registration = await navigator.serviceWorker.register(button.dataset.worker);
      const options = { userVisibleOnly: true, applicationServerKey: keyBytes(button.dataset.key) };
      let subscription = await registration.pushManager.subscribe(options);
      let response = await post(subscription);
      if (response.status === 409) {
        /* This browser's endpoint belongs to another account (someone else signed in on
           this device before): drop it and ask the push service for a fresh one. */
        await subscription.unsubscribe();
        subscription = await registration.pushManager.subscribe(options);
        response = await post(subscription);
      }
      status.textContent = response.ok ? button.dataset.done : button.dataset.failed;
      if (!response.ok) button.disabled = false;
    } catch (error) {
      status.textContent = button.dataset.blocked;
      button.disabled = false;
    }
  });
})();
