#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The HTML report in a real browser (ctest browser_html).

Writes example reports with `gpumem report` (the hand-written report of
tests/lit/report/Inputs/small.json with its source in Inputs/app.cu, and the
bundled H100 traces of examples/transpose.cu), opens each view in headless
Chromium (Debian's package, driven through the DevTools protocol: cdp.py)
at its address (#summary, #L<file>-<line>, #drill:l=..,w=..,o=..), and
checks that no script exception or console message appeared, that the view
is the one shown, and that it holds the numbers known by hand (the comments
below say how). Screenshots of the views go to --out (docs/reports.md shows
them).
Exit 77 (ctest: skipped) with a message when chromium is absent. Python's
standard library only.
"""
import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
failures = []


def fail(msg):
    failures.append(msg)
    print('FAIL: ' + msg)


def check(cond, msg):
    if not cond:
        fail(msg)
    return cond


def chromium_cmd():
    for name in ('chromium', 'chromium-browser', 'google-chrome'):
        path = shutil.which(name)
        if path:
            return path
    return None


class Pages:
    """The views of report pages in one headless Chromium (cdp.py)."""
    def __init__(self, browser):
        self.b = browser

    def dom(self, page, frag):
        url = 'file://' + page + ('#' + frag if frag else '')
        problems = self.b.open(url)
        check(not problems, '%s: script errors or console messages: %s' % (url, problems))
        dom = self.b.dom()
        check(dom and '</html>' in dom, '%s: no DOM' % url)
        return dom or ''

    def shot(self, page, frag, png, selector=None, height=None):
        """The view at page#frag (its element `selector`, at most height
        pixels of it; else the window) into png."""
        url = 'file://' + page + ('#' + frag if frag else '')
        problems = self.b.open(url)
        check(not problems, '%s: script errors or console messages: %s' % (url, problems))
        self.b.screenshot(png, selector, height)
        check(os.path.getsize(png) > 10000, '%s: screenshot %s looks empty' % (url, png))


def by_id(dom, ident):
    """Text of the element with this id (a leaf), or None."""
    m = re.search(r'id="%s"[^>]*>([^<]*)<' % re.escape(ident), dom)
    return html.unescape(m.group(1)) if m else None


def row(dom, ident):
    """The <tr> with this id, as text cells."""
    m = re.search(r'<tr id="%s"([^>]*)>(.*?)</tr>' % re.escape(ident), dom, re.S)
    if not m:
        return None, []
    cells = [html.unescape(re.sub(r'<[^>]+>', '', c))
             for c in re.findall(r'<td[^>]*>(.*?)</td>', m.group(2), re.S)]
    return m.group(1), cells


def visible(dom, section):
    m = re.search(r'<section id="%s"( class="([^"]*)")?' % section, dom)
    return bool(m) and 'off' not in (m.group(2) or '')


def drill_data(page):
    text = open(page, encoding='utf-8').read()
    m = re.search(r'<script type="application/json" id="gm-drill">(.*?)</script>', text, re.S)
    return json.loads(m.group(1)) if m else None


def gpumem(args, exe):
    p = subprocess.run([exe, 'report'] + args, capture_output=True, text=True, cwd=ROOT)
    check(p.returncode == 0, 'gpumem report %s: %s' % (' '.join(args), p.stderr.strip()))
    return p


def small_report(b, exe, out):
    page = os.path.join(out, 'small.html')
    with open(page, 'w') as f:
        f.write(gpumem(['tests/lit/report/Inputs/small.json', '--format', 'html',
                        '--source-folders', 'tests/browser/Inputs'], exe).stdout)
    dom = b.dom(page, '')
    check(visible(dom, 'summary') and not visible(dom, 'source'),
          'small: the summary tab is not the one shown')
    check('href="#L0-10">app.cu:10</a>' in dom, 'small: the lines table does not link app.cu:10')
    check('href="#L0-12">app.cu:12</a>' in dom, 'small: the branches table does not link app.cu:12')
    check('href="#L0-51">app.cu:51</a>' in dom, 'small: the findings do not link app.cu:51')
    b.shot(page, '', os.path.join(out, 'summary.png'))
    dom = b.dom(page, 'L0-10')
    check(visible(dom, 'source') and not visible(dom, 'summary'), 'small#L0-10: source not shown')
    attrs, cells = row(dom, 'L0-10')
    check('hit' in attrs, 'small#L0-10: line 10 not highlighted (%r)' % attrs)
    # line 10: 100 requests, 1600 sectors -> 16.00 per request, 1200 excess;
    # 25 of 100 value executions uniform (Inputs/README.md of the lit tests)
    check(cells[:4] == ['10', '100', '16.00', '1200'], 'small: line 10 cells %r' % cells)
    check(cells[6] == '25.0%', 'small: line 10 scalar share %r' % cells)
    check('strided: 16 sectors per request' in cells[-1], 'small: line 10 text %r' % cells)
    _, cells = row(dom, 'L0-20')
    check(cells[4] == '30', 'small: line 20 bank conflicts %r' % cells)
    _, cells = row(dom, 'L0-12')
    check(cells[5] == '50.0%', 'small: line 12 divergence %r' % cells)
    _, cells = row(dom, 'L0-51')
    check('cudaMalloc' in cells[7] and 'finding' in cells[7], 'small: line 51 host notes %r' % cells)
    b.shot(page, 'L0-10', os.path.join(out, 'source.png'), '#source', 470)
    check('No trace in this report' in dom, 'small: no note about the missing trace')


def first_op(launch, detail, space, kind):
    for j, op in enumerate(launch['detail'][detail]['ops']):
        if op[2] == space and op[1] & kind:
            return j
    return -1


def trace_report(b, exe, out, name, checks):
    page = os.path.join(out, name + '.html')
    with open(page, 'w') as f:
        f.write(gpumem(['--trace', 'examples/traces/%s.gmt' % name, '--format', 'html',
                        '--source-folders', 'examples'], exe).stdout)
    data = drill_data(page)
    if not check(data and data['launches'], '%s: no drill-down data' % name):
        return
    L = data['launches'][0]
    warps = sum(1 for w in L['warps'] if w[0])
    dom = b.dom(page, '')
    check(visible(dom, 'drill') and 'id="drill-grid"' in dom,
          '%s: a trace alone does not open on its drill-down' % name)
    dom = b.dom(page, 'drill:l=0,m=excess')
    check(visible(dom, 'drill'), '%s: drill-down not shown' % name)
    check(dom.count('class="cell"') == len(L['warps']),
          '%s: %d warp cells for %d warps' % (name, dom.count('class="cell"'), len(L['warps'])))
    checks(b, page, dom, L, warps)


def tiled(b, page, dom, L, warps):
    # 32x8 blocks, 4 shared loads per warp of tile[threadIdx.x][...]: all 32
    # lanes on one bank -> 32 wavefronts, 31 beyond the ideal; the stores
    # into the tile and the global accesses are conflict-free / coalesced.
    check(by_id(dom, 'ov-conflicts') == str(124 * warps),
          'tiled: %s bank conflicts, expected 124 x %d warps' % (by_id(dom, 'ov-conflicts'), warps))
    check(by_id(dom, 'ov-excess') == '0', 'tiled: excess sectors %s' % by_id(dom, 'ov-excess'))
    j = first_op(L, 0, 3, 1)
    if not check(j >= 0, 'tiled: warp 0 has no shared load'):
        return
    frag = 'drill:l=0,m=bank,w=%d,o=%d' % (L['detail'][0]['warp'], j)
    dom = b.dom(page, frag)
    # the operation's source link leads to a line of the source view
    links = re.findall(r'<td><a href="#(L\d+-\d+)"[^>]*>transpose\.cu:(\d+)</a></td>', dom)
    check(links and all(('id="%s"' % l) in dom for l, _ in links) and
          {n for _, n in links} == {'26', '31'},
          'tiled: operations do not link transpose.cu:26 and :31 in the source view: %r' % links[:3])
    check(by_id(dom, 'op-units') == '32' and by_id(dom, 'op-ideal') == '1',
          'tiled: shared load %s wavefronts, ideal %s' % (by_id(dom, 'op-units'), by_id(dom, 'op-ideal')))
    lanes = re.search(r'<table id="op-lanes">(.*?)</table>', dom, re.S)
    rows = re.findall(r'<tr><td class="n">(\d+)</td><td>0x[0-9a-f]+</td><td class="n">(\d+)</td>'
                      r'<td class="n">(\d+)</td></tr>', lanes.group(1) if lanes else '')
    check(len(rows) == 32, 'tiled: %d lane rows' % len(rows))
    check(len({r[1] for r in rows}) == 1 and sorted(int(r[2]) for r in rows) == list(range(32)),
          'tiled: lanes not on one bank in 32 wavefronts: %r' % rows[:4])
    b.shot(page, frag, os.path.join(out_dir, 'drill-shared.png'), '#drill-op', 400)
    b.shot(page, 'drill:l=0,m=bank', os.path.join(out_dir, 'drill-overview.png'), '#drill', 600)


def naive(b, page, dom, L, warps):
    # out[x * n + y + j] = in[(y + j) * n + x]: loads 4 sectors per request,
    # stores one sector per lane (32 per request, 28 beyond the ideal 4)
    j = first_op(L, 0, 1, 2)
    k = first_op(L, 0, 1, 1)
    if not check(j >= 0 and k >= 0, 'naive: warp 0 lacks a global load or store'):
        return
    w = L['detail'][0]['warp']
    dom = b.dom(page, 'drill:l=0,w=%d,o=%d' % (w, j))
    check(by_id(dom, 'op-units') == '32' and by_id(dom, 'op-ideal') == '4',
          'naive: store %s sectors, ideal %s' % (by_id(dom, 'op-units'), by_id(dom, 'op-ideal')))
    check(by_id(dom, 'warp-sectors') == str(4 * 4 + 4 * 32),
          'naive: warp sectors %s, expected 4 loads x 4 + 4 stores x 32' % by_id(dom, 'warp-sectors'))
    dom = b.dom(page, 'drill:l=0,w=%d,o=%d' % (w, k))
    check(by_id(dom, 'op-units') == '4', 'naive: load %s sectors' % by_id(dom, 'op-units'))
    check(by_id(dom, 'ov-excess') == str(4 * 28 * warps),
          'naive: excess %s, expected 4 x 28 x %d warps' % (by_id(dom, 'ov-excess'), warps))
    b.shot(page, 'drill:l=0,m=excess,w=%d,o=%d' % (w, j), os.path.join(out_dir, 'drill-global.png'),
           '#drill-op', 330)
    b.shot(page, 'drill:l=0,m=excess,w=%d' % w, os.path.join(out_dir, 'drill-warp.png'), '#drill-warp', 330)


out_dir = None


def main():
    global out_dir
    ap = argparse.ArgumentParser()
    ap.add_argument('--gpumem', required=True)
    ap.add_argument('--out', required=True)
    a = ap.parse_args()
    exe = chromium_cmd()
    if not exe:
        print('SKIP: chromium is not installed (Debian package chromium; scripts/setup.sh installs it)')
        return 77
    out_dir = os.path.abspath(a.out)
    os.makedirs(out_dir, exist_ok=True)
    with tempfile.TemporaryDirectory() as profile:
        browser = cdp.Browser(exe, profile)
        try:
            b = Pages(browser)
            small_report(b, a.gpumem, out_dir)
            trace_report(b, a.gpumem, out_dir, 'transpose_tiled', tiled)
            trace_report(b, a.gpumem, out_dir, 'transpose_naive', naive)
        finally:
            browser.close()
    print('screenshots and pages in ' + out_dir)
    if failures:
        print('%d checks failed' % len(failures))
        return 1
    print('all checks passed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
