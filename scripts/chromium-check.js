// chromium-check.js — opens Tessera's outputs in the real tools, in headless
// Debian chromium driven by playwright-core (scripts/realtools.sh installs both):
//   speedscope SPEEDSCOPE_DIR TRACE.json...  each trace loads in speedscope (its
//       release files from the npm package) with no warning, error or alert;
//   svg FILE.svg...  every rect, path, line and text of the picture, as Chromium
//       lays it out (getBBox), lies inside the picture's width and height.
// Files are served on 127.0.0.1 only. Prints one line per file; exit 1 on any
// failure. Environment: CHROMIUM (default /usr/bin/chromium), PLAYWRIGHT_CORE.
'use strict';
const fs = require('fs');
const http = require('http');
const os = require('os');
const path = require('path');
const { chromium } = require(process.env.PLAYWRIGHT_CORE || 'playwright-core');

const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css',
    '.json': 'application/json', '.svg': 'image/svg+xml', '.wasm': 'application/wasm' };

// Serves /app/* from `appDir` and /f/N from files[N]; resolves with the port.
function serve(appDir, files) {
    const server = http.createServer((req, res) => {
        const url = decodeURIComponent(req.url.split(/[?#]/)[0]);
        let file = null;
        if (url.startsWith('/f/')) file = files[Number(url.slice(3).split('.')[0])];
        else if (appDir && url.startsWith('/app/')) {
            file = path.join(appDir, path.normalize(url.slice(5)));
            if (!file.startsWith(appDir)) file = null;
        }
        if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
            res.writeHead(404);
            return res.end();
        }
        res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream',
            'Content-Length': fs.statSync(file).size });
        fs.createReadStream(file).pipe(res);
    });
    return new Promise(resolve => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// Loads one trace in speedscope; returns a list of problems (empty: fine).
async function speedscope(page, port, n) {
    const problems = [];
    page.on('console', m => {
        // Chromium's own GPU notices (software WebGL) are not the page's.
        if ((m.type() === 'warning' || m.type() === 'error') && !/GL Driver Message/.test(m.text()))
            problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', e => problems.push(`page error: ${e.message}`));
    page.on('dialog', d => { problems.push(`alert: ${d.message()}`); d.dismiss(); });
    const url = `http://127.0.0.1:${port}/app/index.html#profileURL=` +
        encodeURIComponent(`http://127.0.0.1:${port}/f/${n}.json`);
    await page.goto(url);
    try {
        await page.waitForFunction(() => / - speedscope$/.test(document.title), null,
            { timeout: 120000 });
    } catch (e) {
        problems.push(`not loaded (title "${await page.title()}"): ${e.message.split('\n')[0]}`);
    }
    return problems;
}

// Lays one SVG out in Chromium; returns its problems.
async function svg(page, port, n) {
    await page.goto(`http://127.0.0.1:${port}/f/${n}.svg`);
    return page.evaluate(() => {
        const root = document.documentElement, out = [];
        const W = root.width.baseVal.value, H = root.height.baseVal.value, eps = 0.01;
        let shapes = 0;
        for (const el of root.querySelectorAll('rect, path, line, text')) {
            if (el.closest('defs')) continue;
            const b = el.getBBox();
            shapes++;
            if (!(b.x >= -eps && b.y >= -eps && b.x + b.width <= W + eps &&
                  b.y + b.height <= H + eps) && out.length < 5)
                out.push(`${el.tagName} box (${b.x}, ${b.y}, ${b.width} x ${b.height}) outside` +
                         ` ${W} x ${H}: ${el.outerHTML.slice(0, 160)}`);
        }
        if (shapes < 50) out.push(`only ${shapes} shapes: not a timeline?`);
        return out;
    });
}

async function main() {
    const [mode, ...rest] = process.argv.slice(2);
    if (mode !== 'speedscope' && mode !== 'svg') {
        console.error('usage: chromium-check.js speedscope DIR TRACE.json... | svg FILE.svg...');
        process.exit(2);
    }
    const appDir = mode === 'speedscope' ? path.resolve(rest.shift()) : null;
    const files = rest.map(f => path.resolve(f));
    const server = await serve(appDir, files);
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-chromium-'));
    let context = null, failed = 0;
    try {
        context = await chromium.launchPersistentContext(profile, {
            executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
            args: FLAGS });
        for (let n = 0; n < files.length; n++) {
            const page = await context.newPage(); // a fresh page (and listeners) per file
            const problems = mode === 'svg' ? await svg(page, server.address().port, n)
                                            : await speedscope(page, server.address().port, n);
            await page.close();
            console.log(`${problems.length ? 'FAIL' : 'ok'} ${mode}: ${files[n]}`);
            for (const p of problems.slice(0, 10)) console.log(`    ${p}`);
            failed += problems.length > 0;
        }
    } finally {
        if (context) await context.close();
        server.close();
        fs.rmSync(profile, { recursive: true, force: true });
    }
    process.exit(failed ? 1 : 0);
}

main().catch(e => { console.error(`chromium-check: ${e.stack || e}`); process.exit(1); });
