// SPDX-License-Identifier: Apache-2.0
// Script of the HTML report (embedded in every report.html through
// write_html_assets.c, made by gen_html_assets.py): tabs, navigation to
// source lines, and the drill-down views (Rosen's: a launch's blocks and
// warps coloured by a metric, a warp's memory operations in order, one
// operation's lanes with their sectors or banks and wavefronts), drawn as
// SVG from the JSON in #gm-drill. The state is in the URL's fragment
// (#L<file>-<line>, #drill:l=..,m=..,w=..,o=..), so every view has an
// address. No external code or requests.
(function () {
  'use strict';
  var SECTIONS = ['summary', 'source', 'drill'];
  var SVGNS = 'http://www.w3.org/2000/svg';
  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function sv(tag, attrs, text) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function add(parent) {
    for (var i = 1; i < arguments.length; i++) {
      var c = arguments[i];
      parent.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    }
    return parent;
  }
  function num(v) { return Number.isInteger(v) ? String(v) : v.toFixed(2); }

  // ---- tabs and source lines ----
  function show(id) {
    SECTIONS.forEach(function (s) {
      var e = $(s);
      if (e) e.classList.toggle('off', s !== id);
    });
    document.querySelectorAll('nav#tabs a').forEach(function (a) {
      a.classList.toggle('on', a.getAttribute('href') === '#' + id);
    });
  }
  function gotoLine(id) {
    show('source');
    var row = $(id);
    if (!row) return;
    var d = row.closest('details');
    if (d) d.open = true;
    document.querySelectorAll('tr.hit').forEach(function (r) { r.classList.remove('hit'); });
    row.classList.add('hit');
    row.scrollIntoView({block: 'center'});
  }
  function route() {
    var h = decodeURIComponent(location.hash.slice(1));
    if (/^L\d+-\d+$/.test(h)) return gotoLine(h);
    if (h.indexOf('drill') === 0) {
      show('drill');
      if (D) drill(h);
      return;
    }
    if (!h && D && $('summary').dataset.empty) {   // a trace alone: its drill-down
      show('drill');
      drill('drill');
      return;
    }
    show(SECTIONS.indexOf(h) >= 0 ? h : 'summary');
  }

  // ---- drill-down ----
  var D = null;
  var data = $('gm-drill');
  if (data) D = JSON.parse(data.textContent);
  // warp row: [ops, lanes, requests, sectors, ideal sectors, shared ops,
  //            wavefronts, ideal wavefronts, smid, detail index or -1]
  var METRICS = {
    excess: ['excess sectors', function (w) { return Math.max(0, w[3] - w[4]); }],
    spr: ['sectors per request', function (w) { return w[2] ? w[3] / w[2] : 0; }],
    bank: ['bank conflicts (excess wavefronts)', function (w) { return Math.max(0, w[6] - w[7]); }],
    ops: ['memory operations', function (w) { return w[0]; }],
    lanes: ['active lanes per operation', function (w) { return w[0] ? w[1] / w[0] : 0; }],
    sm: ['SM', function (w) { return w[8]; }]
  };
  var KIND = {1: 'ld', 2: 'st', 3: 'ld+st', 7: 'atom'};
  var SPACE = {0: 'generic', 1: 'global', 3: 'shared', 4: 'const', 5: 'local'};
  var PALETTE = ['#4a7ab5', '#dc322f', '#859900', '#b58900', '#6c71c4', '#2aa198',
                 '#d33682', '#cb4b16', '#268bd2', '#586e75'];
  var st = {l: 0, m: 'excess', w: -1, o: -1};

  function parse(h) {
    var s = {l: 0, m: 'excess', w: -1, o: -1};
    h.replace(/^drill:?/, '').split(',').forEach(function (kv) {
      var p = kv.split('=');
      if (p.length !== 2) return;
      if (p[0] === 'm') s.m = METRICS[p[1]] ? p[1] : 'excess';
      else if (p[0] in s) s[p[0]] = parseInt(p[1], 10);
    });
    if (!(s.l >= 0 && s.l < D.launches.length)) s.l = 0;
    var L = D.launches[s.l];
    if (!L || !(s.w >= 0 && s.w < L.warps.length)) s.w = -1;
    var det = s.w >= 0 && L.warps[s.w][9] >= 0 ? L.detail[L.warps[s.w][9]] : null;
    if (!det || !(s.o >= 0 && s.o < det.ops.length)) s.o = -1;
    return s;
  }
  function go(s) {
    location.hash = 'drill:l=' + s.l + ',m=' + s.m + ',w=' + s.w + ',o=' + s.o;
  }
  function with_(k, v) {
    var s = {l: st.l, m: st.m, w: st.w, o: st.o};
    s[k] = v;
    if (k === 'l') { s.w = -1; s.o = -1; }
    if (k === 'w') s.o = -1;
    return s;
  }
  function ctaOf(L, i) {
    var c = Math.floor(i / L.wpc), gx = L.grid[0] || 1, gy = L.grid[1] || 1;
    return [c % gx, Math.floor(c / gx) % gy, Math.floor(c / gx / gy)];
  }
  function heat(t) {
    var a = [247, 244, 240], b = [178, 24, 43];
    return 'rgb(' + a.map(function (x, i) { return Math.round(x + (b[i] - x) * t); }).join(',') + ')';
  }
  function stat(label, id, v) {
    return add(el('span', {'class': 'k'}), label + ' ', el('b', {id: id}, num(v)));
  }
  function siteText(s) {
    if (!s || !s[0]) return '?';
    return s[0].replace(/^.*\//, '') + ':' + s[1];
  }
  function siteLink(s) {
    var t = siteText(s);
    if (!s || !s[3]) return el('span', {}, t);
    var a = el('a', {href: '#' + s[3], title: s[0] + ':' + s[1] + (s[2] ? ' in ' + s[2] : '')}, t);
    a.addEventListener('click', function (e) { e.stopPropagation(); });
    return a;
  }

  function controls(ui) {
    var ls = el('select', {id: 'drill-launch'});
    D.launches.forEach(function (L, i) {
      var o = el('option', {value: i}, L.kernel + ' (launch ' + L.seq + ')');
      if (i === st.l) o.selected = true;
      ls.appendChild(o);
    });
    ls.addEventListener('change', function () { go(with_('l', parseInt(ls.value, 10))); });
    var ms = el('select', {id: 'drill-metric'});
    Object.keys(METRICS).forEach(function (k) {
      var o = el('option', {value: k}, METRICS[k][0]);
      if (k === st.m) o.selected = true;
      ms.appendChild(o);
    });
    ms.addEventListener('change', function () { go(with_('m', ms.value)); });
    add(ui, add(el('p'), 'Launch ', ls, ' colour warps by ', ms));
  }

  function totals(L) {
    var t = [0, 0, 0, 0, 0, 0, 0, 0];
    L.warps.forEach(function (w) { for (var i = 0; i < 8; i++) t[i] += w[i]; });
    return t;
  }

  function overview(ui, L) {
    var m = METRICS[st.m], n = L.warps.length, wpc = L.wpc, max = 0;
    var vals = L.warps.map(function (w) {
      var v = w[0] ? m[1](w) : null;
      if (v !== null && v > max) max = v;
      return v;
    });
    var ctas = (L.grid[0] || 1) * (L.grid[1] || 1) * (L.grid[2] || 1);
    var t = totals(L);
    add(ui, el('h3', {}, 'Blocks and warps'));
    add(ui, add(el('p', {id: 'drill-launch-info'}),
        'Kernel ', el('b', {}, L.kernel), ', launch ' + L.seq + ', grid (' + L.grid.join(', ') +
        ') of blocks (' + L.block.join(', ') + '): blocks 0 to ' + (L.ctas_kept - 1) + ' of ' +
        ctas + ' shown (' + n + ' warps, ' + wpc + ' per block); ' + L.ops_kept + ' of the launch\'s ' +
        L.ops + ' memory operations are in the blocks shown.'));
    add(ui, add(el('p'),
        stat('requests', 'ov-requests', t[2]), stat('sectors', 'ov-sectors', t[3]),
        stat('ideal', 'ov-ideal', t[4]), stat('excess sectors', 'ov-excess', Math.max(0, t[3] - t[4])),
        stat('shared ops', 'ov-shared', t[5]), stat('wavefronts', 'ov-wavefronts', t[6]),
        stat('bank conflicts', 'ov-conflicts', Math.max(0, t[6] - t[7]))));
    var c = n <= 512 ? 14 : n <= 2048 ? 9 : 6, bw = wpc * c + 3;
    var perRow = Math.max(1, Math.floor(960 / bw)), rows = Math.ceil(L.ctas_kept / perRow);
    var svg = sv('svg', {width: perRow * bw + 10, height: rows * (c + 3) + 40, id: 'drill-grid'});
    vals.forEach(function (v, i) {
      var cta = Math.floor(i / wpc), x = (cta % perRow) * bw + (i % wpc) * c;
      var y = Math.floor(cta / perRow) * (c + 3), w = L.warps[i], b = ctaOf(L, i);
      var det = w[9] >= 0, sel = i === st.w;
      var r = sv('rect', {x: x + 1, y: y + 1, width: c - 1, height: c - 1, 'class': 'cell',
                          fill: v === null ? '#fff' : heat(max ? v / max : 0),
                          stroke: sel ? '#e0a800' : det ? '#000' : v === null ? '#ddd' : 'none',
                          'stroke-width': sel ? 2.5 : det ? 1.2 : 0.6, 'data-warp': i});
      add(r, sv('title', {}, 'block (' + b.join(',') + ') warp ' + (i % wpc) + ': ' + m[0] + ' ' +
                (v === null ? '(no operations)' : num(v)) + '; ' + w[0] + ' operations' +
                (det ? '; operations kept (click)' : '')));
      r.addEventListener('click', function () { go(with_('w', i)); });
      svg.appendChild(r);
    });
    var ly = rows * (c + 3) + 12;
    var grad = sv('linearGradient', {id: 'gm-heat'});
    add(grad, sv('stop', {offset: '0', 'stop-color': heat(0)}), sv('stop', {offset: '1', 'stop-color': heat(1)}));
    add(svg, add(sv('defs'), grad), sv('rect', {x: 40, y: ly, width: 200, height: 10, fill: 'url(#gm-heat)'}),
        sv('text', {x: 0, y: ly + 9, 'font-size': 11}, '0'),
        sv('text', {x: 246, y: ly + 9, 'font-size': 11, id: 'drill-max'}, num(max) + ' ' + m[0]),
        sv('text', {x: 0, y: ly + 26, 'font-size': 11},
           'white: no operations; outlined: warps whose operations are kept (click one)'));
    ui.appendChild(svg);
  }

  function warpView(ui, L) {
    var w = L.warps[st.w], b = ctaOf(L, st.w);
    add(ui, el('h3', {id: 'drill-warp'}, 'Warp ' + (st.w % L.wpc) + ' of block (' + b.join(', ') +
        '), SM ' + w[8]));
    add(ui, add(el('p'), stat('operations', 'warp-ops', w[0]), stat('requests', 'warp-requests', w[2]),
        stat('sectors', 'warp-sectors', w[3]), stat('ideal', 'warp-ideal', w[4]),
        stat('shared ops', 'warp-shared', w[5]), stat('wavefronts', 'warp-wavefronts', w[6]),
        stat('ideal', 'warp-ideal-wf', w[7])));
    if (w[9] < 0) {
      add(ui, el('p', {}, 'This warp\'s operations were not kept: the outlined warps have theirs ' +
          '(the first warp and the most wasteful ones, at most ' + D.limits.detail + ' per launch).'));
      return null;
    }
    var det = L.detail[w[9]];
    add(ui, el('p', {id: 'warp-kept'}, det.ops.length + ' of the warp\'s ' + det.total +
        ' memory operations, in program order' + (det.ops.length < det.total ? ' (the first ' +
        D.limits.ops + ')' : '') + '. Click one for its lanes.'));
    var tb = el('table', {id: 'warp-ops'});
    add(tb, add(el('tr'), el('th', {}, '#'), el('th', {}, 'source'), el('th', {}, 'operation'),
        el('th', {}, 'active lanes'), el('th', {}, 'sectors or wavefronts'), el('th', {}, 'ideal'),
        el('th', {}, 'excess'), el('th', {}, '')));
    det.ops.forEach(function (op, j) {
      var ex = Math.max(0, op[6] - op[7]);
      var tr = el('tr', {'class': 'op' + (j === st.o ? ' sel' : '')});
      var bar = el('span', {'class': 'bar' + (ex ? '' : ' ok')});
      bar.style.width = Math.min(160, 5 * op[6]) + 'px';
      add(tr, el('td', {'class': 'n'}, String(j)), add(el('td'), siteLink(D.sites[op[0]])),
          el('td', {}, (KIND[op[1]] || 'op' + op[1]) + '.' + (SPACE[op[2]] || op[2]) + ' ' + op[3] + ' B'),
          el('td', {'class': 'n'}, String(popc(op[4]))), el('td', {'class': 'n'}, String(op[6])),
          el('td', {'class': 'n'}, String(op[7])), el('td', {'class': 'n'}, String(ex)), add(el('td'), bar));
      tr.addEventListener('click', function () { go(with_('o', j)); });
      tb.appendChild(tr);
    });
    ui.appendChild(tb);
    return det;
  }

  function popc(m) { var n = 0; for (var k = 0; k < 32; k++) n += (m >>> k) & 1; return n; }

  function laneAddr(op) {
    var base = BigInt(op[5]), a = [];
    for (var k = 0; k < 32; k++) a.push((op[4] >>> k) & 1 ? base + BigInt(op[8][k]) : null);
    return a;
  }
  function hex(v) { return '0x' + v.toString(16); }

  // Global and local: lanes above, the sectors they fall into below.
  function sectorView(ui, op, addr) {
    var width = BigInt(op[3] || 1), sectors = [], used = [];
    addr.forEach(function (a, k) {
      if (a === null) return;
      for (var s = a >> 5n; s <= (a + width - 1n) >> 5n; s++) {
        var i = sectors.findIndex(function (x) { return x === s; });
        if (i < 0) { i = sectors.length; sectors.push(s); used.push(new Set()); }
        for (var b = a; b < a + width; b++) if (b >> 5n === s) used[i].add(b);
      }
    });
    var W = 32 * 28 + 20, G = sectors.length, sw = Math.max(24, Math.min(90, (W - 20) / Math.max(G, 1)));
    var svg = sv('svg', {width: Math.max(W, G * sw + 20), height: 170, id: 'op-diagram'});
    addr.forEach(function (a, k) {
      var x = 10 + k * 28;
      add(svg, sv('rect', {x: x, y: 14, width: 24, height: 20, fill: a === null ? '#fff' : '#eef4fb',
                           stroke: '#999'}),
          sv('text', {x: x + 12, y: 28, 'font-size': 10, 'text-anchor': 'middle'}, String(k)));
      if (a === null) return;
      var g = sectors.findIndex(function (x) { return x === a >> 5n; });
      add(svg, sv('line', {x1: x + 12, y1: 34, x2: 10 + g * sw + sw / 2, y2: 110,
                           stroke: PALETTE[g % PALETTE.length], 'stroke-width': 1.2}));
    });
    add(svg, sv('text', {x: 10, y: 10, 'font-size': 11}, 'lanes'));
    sectors.forEach(function (s, g) {
      var x = 10 + g * sw, u = used[g].size;
      add(svg, sv('rect', {x: x + 1, y: 110, width: sw - 2, height: 24, fill: '#fff',
                           stroke: PALETTE[g % PALETTE.length], 'stroke-width': 2}),
          sv('rect', {x: x + 1, y: 110, width: (sw - 2) * u / 32, height: 24,
                      fill: PALETTE[g % PALETTE.length], opacity: 0.35}),
          add(sv('text', {x: x + sw / 2, y: 126, 'font-size': 10, 'text-anchor': 'middle'}, u + '/32'),
              sv('title', {}, 'sector ' + hex(s << 5n) + ': ' + u + ' of 32 bytes used')));
    });
    add(svg, sv('text', {x: 10, y: 152, 'font-size': 11},
                G + ' sectors of 32 B (bytes used of each); lanes lead to the sector of their first byte'));
    ui.appendChild(svg);
  }

  // Shared: 32 banks across, one row per wavefront; each lane in the cell
  // of its bank and the wavefront that serves it.
  function bankView(ui, op) {
    var rows = Math.max(1, op[6]), cw = 28, ch = 20;
    var svg = sv('svg', {width: 80 + 32 * cw, height: 40 + rows * ch, id: 'op-diagram'});
    for (var b = 0; b < 32; b++)
      add(svg, sv('text', {x: 80 + b * cw + cw / 2, y: 12, 'font-size': 10, 'text-anchor': 'middle'}, String(b)));
    add(svg, sv('text', {x: 0, y: 12, 'font-size': 10}, 'bank'));
    var cells = {};
    for (var k = 0; k < 32; k++) {
      if (op[9][k] < 0) continue;
      var key = op[9][k] + ':' + op[10][k];
      (cells[key] = cells[key] || []).push(k);
    }
    for (var r = 0; r < rows; r++) {
      add(svg, sv('text', {x: 0, y: 20 + r * ch + 14, 'font-size': 10}, 'wavefront ' + r));
      for (b = 0; b < 32; b++) {
        var lanes = cells[r + ':' + b] || [];
        var rc = sv('rect', {x: 80 + b * cw, y: 20 + r * ch, width: cw - 1, height: ch - 1,
                             fill: lanes.length ? PALETTE[r % PALETTE.length] : '#f6f6f6',
                             opacity: lanes.length ? 0.6 : 1});
        add(rc, sv('title', {}, 'bank ' + b + ', wavefront ' + r + (lanes.length ? ': lanes ' + lanes.join(' ') : '')));
        svg.appendChild(rc);
        if (lanes.length)
          add(svg, sv('text', {x: 80 + b * cw + cw / 2, y: 20 + r * ch + 14, 'font-size': 9,
                               'text-anchor': 'middle'}, lanes.length > 1 ? lanes[0] + '+' : String(lanes[0])));
      }
    }
    ui.appendChild(svg);
  }

  function opView(ui, L, det) {
    var op = det.ops[st.o], s = D.sites[op[0]], shared = op[2] === 3, addr = laneAddr(op);
    add(ui, add(el('h3', {id: 'drill-op'}), 'Operation ' + st.o + ': ' + (KIND[op[1]] || op[1]) + '.' +
        (SPACE[op[2]] || op[2]) + ' ' + op[3] + ' B at ', siteLink(s), ', ' + popc(op[4]) + ' active lanes'));
    var what = shared ? 'wavefronts' : 'sectors';
    add(ui, add(el('p'), stat(what, 'op-units', op[6]), stat('ideal', 'op-ideal', op[7]),
        stat(shared ? 'serialised beyond the ideal' : 'excess', 'op-excess', Math.max(0, op[6] - op[7]))));
    if (shared) bankView(ui, op);
    else if (op[2] === 1 || op[2] === 5) sectorView(ui, op, addr);
    var tb = el('table', {id: 'op-lanes'});
    add(tb, add(el('tr'), el('th', {}, 'lane'), el('th', {}, 'address'),
        el('th', {}, shared ? 'bank' : 'sector'), el('th', {}, shared ? 'wavefront' : 'sector #')));
    addr.forEach(function (a, k) {
      if (a === null) return;
      add(tb, add(el('tr'), el('td', {'class': 'n'}, String(k)), el('td', {}, hex(a)),
          el('td', {'class': 'n'}, shared ? String(op[10][k]) : hex((a >> 5n) << 5n)),
          el('td', {'class': 'n'}, String(op[9][k]))));
    });
    ui.appendChild(tb);
  }

  function drill(h) {
    st = parse(h);
    var ui = $('drill-ui'), L = D.launches[st.l];
    ui.textContent = '';
    $('drill-note').textContent = 'From trace ' + D.trace + (D.gpu ? ' (' + D.gpu + ')' : '') + ': ' +
      D.launches.length + ' of ' + D.launches_total + ' launches (the first launch of each kernel, at most ' +
      D.limits.launches + '); per launch at most ' + D.limits.warps + ' warps (the first blocks), and the ' +
      'operations of at most ' + D.limits.detail + ' warps (the first warp and the most wasteful ones; at most ' +
      D.limits.ops + ' operations each).';
    if (!L) { add(ui, el('p', {}, 'The trace has no launches.')); return; }
    controls(ui);
    overview(ui, L);
    if (st.w < 0) return;
    var det = warpView(ui, L);
    if (det && st.o >= 0) opView(ui, L, det);
    // bring what was picked into view: the operation, else the warp
    $(st.o >= 0 ? 'drill-op' : 'drill-warp').scrollIntoView({block: 'start'});
  }

  document.body.classList.add('js');
  window.addEventListener('hashchange', route);
  // again once loaded: the browser's own scroll to the fragment comes after
  // this script, and before the other sections were hidden
  window.addEventListener('load', function () { if (/^#L/.test(location.hash)) route(); });
  route();
})();
