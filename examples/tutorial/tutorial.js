// Listens to the steppers' stagechange events, as a tutorial might to sync its prose.
const log = document.getElementById('log');
document.addEventListener('stagechange', (event) => {
  log.textContent = `${event.target.id}: ${event.detail.stage} (${event.detail.index + 1}/${event.detail.total})`;
});
