/**
 * Classification of IP addresses for the webhook SSRF guard.
 *
 * The rule is an allow-list: an address is "public" only when it is ordinary global unicast.
 * Everything else (loopback, RFC 1918, CGNAT, link-local incl. cloud metadata, unspecified,
 * multicast, broadcast, reserved, benchmarking, documentation, IPv6 ULA / link-local /
 * site-local / discard, anything outside 2000::/3) is "private". IPv6 forms that embed an IPv4
 * address (IPv4-mapped, SIIT, NAT64 64:ff9b::/96, 6to4, Teredo) are judged by the embedded
 * address. Input that is not a valid IP address is treated as private (fail closed).
 */
import ipaddr from 'ipaddr.js';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

function isPrivateV4(addr: IPv4): boolean {
  // ipaddr.js names every special-purpose IPv4 block (0/8, 10/8, 100.64/10, 127/8, 169.254/16,
  // 172.16/12, 192.0.0/24, 192.0.2/24, 192.88.99/24, 192.168/16, 198.18/15, 198.51.100/24,
  // 203.0.113/24, 224/4, 240/4, 255.255.255.255, AS112, AMT); only the rest is 'unicast'.
  return addr.range() !== 'unicast';
}

function v4FromWords(hi: number, lo: number): IPv4 {
  return new ipaddr.IPv4([(hi >> 8) & 0xff, hi & 0xff, (lo >> 8) & 0xff, lo & 0xff]);
}

function isPrivateV6(addr: IPv6): boolean {
  // An IPv6 address always has eight 16-bit words.
  const p = addr.parts as [number, number, number, number, number, number, number, number];
  // ::/96: unspecified, loopback and the deprecated IPv4-compatible form. Never a valid target.
  if (p[0] === 0 && p[1] === 0 && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0) return true;
  switch (addr.range()) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d (SIIT)
      return isPrivateV4(v4FromWords(p[6], p[7]));
    case 'rfc6052':
      // 64:ff9b::/96 is the well-known NAT64 prefix: judged by the embedded IPv4 address.
      // 64:ff9b:1::/48 is for local use only.
      if (p[0] === 0x64 && p[1] === 0xff9b && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0) {
        return isPrivateV4(v4FromWords(p[6], p[7]));
      }
      return true;
    case '6to4': // 2002:AABB:CCDD::/48 embeds AA.BB.CC.DD
      return isPrivateV4(v4FromWords(p[1], p[2]));
    case 'teredo': // 2001:0:SSSS:SSSS:flags:port:~CCCC:~CCCC (server and obfuscated client IPv4)
      return isPrivateV4(v4FromWords(p[2], p[3])) || isPrivateV4(v4FromWords(p[6] ^ 0xffff, p[7] ^ 0xffff));
    case 'unicast':
      // Only 2000::/3 is allocated global unicast; everything else is reserved by the IETF.
      return (p[0] & 0xe000) !== 0x2000;
    default:
      // linkLocal, multicast, uniqueLocal, deprecatedSiteLocal, discard, benchmarking,
      // reserved (2001::/23 protocol assignments, 2001:db8::/32 and 3fff::/20 documentation),
      // orchid, AMT, AS112, segment routing, ...
      return true;
  }
}

/**
 * True for loopback, private (RFC 1918), CGNAT 100.64/10, link-local 169.254/16 (incl. cloud
 * metadata 169.254.169.254), unspecified 0.0.0.0/::, multicast, broadcast, reserved,
 * benchmarking 198.18/15, IPv6 ::1, fc00::/7 ULA, fe80::/10, IPv4-mapped IPv6 of any of those
 * (::ffff:127.0.0.1), 6to4/NAT64 forms embedding private v4, documentation ranges.
 *
 * Accepts an optional `[...]` around IPv6. A zone id (`fe80::1%eth0`) makes the address private.
 * Anything that is not a valid IP address returns true (fail closed).
 */
export function isPrivateAddress(ip: string): boolean {
  if (typeof ip !== 'string') return true;
  let s = ip.trim();
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  if (s.includes('%')) return true; // scoped (zone id) addresses are link-local by nature
  if (!ipaddr.isValid(s)) return true;
  let addr: IPv4 | IPv6;
  try {
    addr = ipaddr.parse(s);
  } catch {
    return true;
  }
  return addr.kind() === 'ipv4' ? isPrivateV4(addr as IPv4) : isPrivateV6(addr as IPv6);
}
