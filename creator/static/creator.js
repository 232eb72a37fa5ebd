// The creator's entry module (placeholder while the app is built).
const boot = JSON.parse(document.getElementById('kiln-boot').textContent || '{}');
document.documentElement.lang = boot.lang || 'en';
