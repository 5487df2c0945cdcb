/* The "Notify me on this device" button: registers push-sw.js, asks the browser for a
   push subscription with the site's VAPID public key and posts it to the API. Shown
   only where the browser supports push (the button starts hidden). */
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

  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const registration = await navigator.serviceWorker.register(button.dataset.worker);
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(button.dataset.key),
      });
      const response = await fetch(button.dataset.api, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
        body: JSON.stringify(subscription.toJSON()),
      });
      status.textContent = response.ok ? button.dataset.done : button.dataset.failed;
      if (!response.ok) button.disabled = false;
    } catch (error) {
      status.textContent = button.dataset.blocked;
      button.disabled = false;
    }
  });
})();
