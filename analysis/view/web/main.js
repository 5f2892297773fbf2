// main.js — picks the page from the URL: / (runs), /run/N, /compare/A/B.
'use strict';

(async function () {
  const app = document.getElementById('app');
  const p = location.pathname;
  let m;
  try {
    if (p === '/') await TS.runsPage(app);
    else if ((m = p.match(/^\/run\/(\d+)$/))) await TS.runPage(app, m[1]);
    else if ((m = p.match(/^\/compare\/(\d+)\/(\d+)$/))) await TS.comparePage(app, m[1], m[2]);
    else app.replaceChildren(TS.el('p', { class: 'error', text: `no page ${p}` }));
  } catch (e) {
    app.replaceChildren();
    TS.showError(app, e);
  }
  window.__drawn.ready = true;
})();
