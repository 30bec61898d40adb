# SPDX-License-Identifier: Apache-2.0
"""A minimal Chrome DevTools Protocol client for the browser test, on
Python's standard library only: starts headless Chromium, opens pages,
records script exceptions and console messages, returns the page's DOM and
takes screenshots of one element (clipped in page coordinates, so nothing
depends on scrolling: chromium's --screenshot shows a blank page once the
page has scrolled)."""
import base64
import json
import os
import re
import socket
import struct
import subprocess
import threading
import time
import urllib.request


class Browser:
    def __init__(self, exe, profile, width=1100, height=760):
        self.proc = subprocess.Popen(
            [exe, '--headless', '--disable-gpu', '--no-sandbox', '--no-first-run',
             '--hide-scrollbars', '--remote-debugging-port=0', '--user-data-dir=' + profile,
             'about:blank'],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        port = None
        deadline = time.time() + 60
        while time.time() < deadline and port is None:
            line = self.proc.stderr.readline()
            if not line and self.proc.poll() is not None:
                break
            m = re.search(r'DevTools listening on ws://[^:]+:(\d+)/', line)
            port = m and m.group(1)
        if not port:
            self.close()
            raise RuntimeError('chromium did not start its DevTools endpoint')
        # keep reading its log, or chromium blocks once the pipe is full
        threading.Thread(target=lambda: [None for _ in self.proc.stderr], daemon=True).start()
        self.port = port
        targets = json.load(urllib.request.urlopen('http://127.0.0.1:%s/json/list' % port))
        page = [t for t in targets if t.get('type') == 'page'][0]
        self.sock = self._connect(page['webSocketDebuggerUrl'])
        self.next_id = 0
        self.events = []
        self.call('Page.enable')
        self.call('Runtime.enable')
        self.call('Emulation.setDeviceMetricsOverride',
                  {'width': width, 'height': height, 'deviceScaleFactor': 1, 'mobile': False})

    # ---- websocket (RFC 6455, client side, text frames) ----
    def _connect(self, url):
        m = re.match(r'ws://([^:/]+):(\d+)(/.*)', url)
        s = socket.create_connection((m.group(1), int(m.group(2))), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall(('GET %s HTTP/1.1\r\nHost: %s:%s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n'
                   'Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n'
                   % (m.group(3), m.group(1), m.group(2), key)).encode())
        head = b''
        while b'\r\n\r\n' not in head:
            head += s.recv(1)
        if b' 101 ' not in head.split(b'\r\n')[0]:
            raise RuntimeError('websocket upgrade refused: %r' % head[:80])
        return s

    def _recv_exact(self, n):
        buf = b''
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise RuntimeError('DevTools connection closed')
            buf += chunk
        return buf

    def _send(self, obj):
        data = json.dumps(obj).encode()
        n = len(data)
        head = bytes([0x81])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack('>H', n)
        else:
            head += bytes([0x80 | 127]) + struct.pack('>Q', n)
        mask = os.urandom(4)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _recv(self):
        message = b''
        while True:
            b0, b1 = self._recv_exact(2)
            n = b1 & 0x7f
            if n == 126:
                n = struct.unpack('>H', self._recv_exact(2))[0]
            elif n == 127:
                n = struct.unpack('>Q', self._recv_exact(8))[0]
            payload = self._recv_exact(n)
            if b0 & 0x0f == 0x8:
                raise RuntimeError('DevTools connection closed')
            if b0 & 0x0f in (0x9, 0xa):    # ping / pong
                continue
            message += payload
            if b0 & 0x80:
                return json.loads(message)

    def call(self, method, params=None):
        self.next_id += 1
        self._send({'id': self.next_id, 'method': method, 'params': params or {}})
        while True:
            msg = self._recv()
            if msg.get('id') == self.next_id:
                if 'error' in msg:
                    raise RuntimeError('%s: %s' % (method, msg['error']))
                return msg.get('result', {})
            self.events.append(msg)

    def wait_event(self, method, timeout=60):
        deadline = time.time() + timeout
        for i, e in enumerate(self.events):
            if e.get('method') == method:
                del self.events[i]
                return e
        while time.time() < deadline:
            msg = self._recv()
            if msg.get('method') == method:
                return msg
            self.events.append(msg)
        raise RuntimeError('no %s within %d s' % (method, timeout))

    # ---- pages ----
    def open(self, url):
        """Loads url afresh; returns the script errors and console messages."""
        self.call('Page.navigate', {'url': 'about:blank'})
        self.wait_event('Page.loadEventFired')
        self.events = []
        self.call('Page.navigate', {'url': url})
        self.wait_event('Page.loadEventFired')
        self.evaluate('new Promise(r => requestAnimationFrame(() => setTimeout(r, 50)))')
        problems = []
        for e in self.events:
            if e.get('method') == 'Runtime.exceptionThrown':
                d = e['params']['exceptionDetails']
                problems.append('exception: %s' % d.get('exception', {}).get('description', d.get('text')))
            elif e.get('method') == 'Runtime.consoleAPICalled':
                args = ' '.join(str(a.get('value', a.get('description', ''))) for a in e['params']['args'])
                problems.append('console.%s: %s' % (e['params']['type'], args))
        return problems

    def evaluate(self, expr):
        r = self.call('Runtime.evaluate', {'expression': expr, 'returnByValue': True,
                                           'awaitPromise': True})
        if 'exceptionDetails' in r:
            raise RuntimeError('evaluate %s: %s' % (expr, r['exceptionDetails']))
        return r.get('result', {}).get('value')

    def dom(self):
        return self.evaluate('document.documentElement.outerHTML')

    def screenshot(self, png, selector=None, height=None, width=1100):
        """PNG of the page from the top of the element matching selector down
        height pixels (default: the element's height), or of the viewport;
        page coordinates, whatever the scroll."""
        clip = None
        if selector:
            r = self.evaluate('(function(){var e=document.querySelector(%s);if(!e)return null;'
                              'var b=e.getBoundingClientRect();return [b.left+scrollX,b.top+scrollY,'
                              'b.width,b.height];})()' % json.dumps(selector))
            if not r:
                raise RuntimeError('no element %s to screenshot' % selector)
            x, y, w, h = r
            clip = {'x': max(0, x - 8), 'y': max(0, y - 8), 'width': min(width, w + 16),
                    'height': height or h + 16, 'scale': 1}
        params = {'format': 'png'}
        if clip:
            params.update({'clip': clip, 'captureBeyondViewport': True})
        data = self.call('Page.captureScreenshot', params)['data']
        with open(png, 'wb') as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            if getattr(self, 'sock', None):
                self.sock.close()
        finally:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
