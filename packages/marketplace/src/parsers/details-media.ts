/**
 * Product images of a detail page. High-resolution sources are preferred:
 * data-old-hires, the largest key of data-a-dynamic-image, the ImageBlockATF
 * colorImages JSON ('hiRes' / 'large' / largest 'main'), and for books the
 * imageGalleryData JSON. The visible `src` is often a base64 placeholder.
 */
import type { Doc, PageScripts, Sel } from '../page';
import { findJson, isRecord } from './text';

/** Key with the largest area in a {url: [w, h]} map (data-a-dynamic-image / colorImages 'main'). */
export function largestImageKey(map: unknown): string | null {
  if (!isRecord(map)) return null;
  let best: string | null = null;
  let bestArea = -1;
  for (const [url, dims] of Object.entries(map)) {
    if (!/^https?:\/\//.test(url)) continue;
    const area = Array.isArray(dims) && dims.length >= 2 ? Number(dims[0]) * Number(dims[1]) : 0;
    if (area > bestArea) {
      best = url;
      bestArea = area;
    }
  }
  return best;
}

function parseDynamicImage(raw: string | undefined): string | null {
  if (!raw) return null;
  try {
    return largestImageKey(JSON.parse(raw));
  } catch {
    return null;
  }
}

function httpUrl(u: unknown): string | null {
  return typeof u === 'string' && /^https?:\/\//.test(u.trim()) ? u.trim() : null;
}

/** Best URL of an <img>: hi-res attribute, then largest dynamic size, then a real (non data:) src. */
export function imageFromImg(img: Sel): string | null {
  if (img.length === 0) return null;
  return (
    httpUrl(img.attr('data-old-hires')) ??
    parseDynamicImage(img.attr('data-a-dynamic-image')) ??
    httpUrl(img.attr('data-src')) ??
    httpUrl(img.attr('src'))
  );
}

/** Amazon image identity: the "/I/<id>." part, so different renditions de-duplicate. */
function imageKey(url: string): string {
  const m = /\/images\/I\/([^./]+)/.exec(url);
  return m ? m[1]! : url;
}

function isColorImage(v: unknown): v is Record<string, unknown>[] {
  return Array.isArray(v) && v.length > 0 && isRecord(v[0]) && ('hiRes' in v[0] || 'large' in v[0] || 'main' in v[0]);
}

function isGallery(v: unknown): v is Record<string, unknown>[] {
  return Array.isArray(v) && v.length > 0 && isRecord(v[0]) && 'mainUrl' in v[0];
}

/** colorImages.initial of the ImageBlockATF script (present in 2017-2024 pages with scripts). */
function colorImagesFromScripts(scripts: PageScripts): string[] {
  const html = scripts.source.raw;
  let list: Record<string, unknown>[] | undefined;
  // Every spacing and quoting of the ImageBlockATF data, in one pass of indexOf over the scripts.
  for (let at = scripts.indexOf('colorImages'); !list && at >= 0; at = scripts.indexOf('colorImages', at + 11)) {
    const near = html.slice(at, at + 120);
    const m = /^colorImages['"]\s*:\s*\{\s*(['"]initial['"])/.exec(near);
    if (m) list = findJson(scripts, m[1]!, isColorImage, 1, at);
  }
  if (!list) return [];
  const out: string[] = [];
  for (const item of list) {
    const u = httpUrl(item.hiRes) ?? largestImageKey(item.main) ?? httpUrl(item.large);
    if (u) out.push(u);
  }
  return out;
}

/** Books: 'imageGalleryData' : [{mainUrl, dimensions, thumbUrl}]. */
function galleryFromScripts(scripts: PageScripts): string[] {
  const list = findJson(scripts, "'imageGalleryData'", isGallery, 2);
  if (!list) return [];
  return list.map((g) => httpUrl(g.mainUrl)).filter((u): u is string => u !== null);
}

/** Scripts-stripped renders: thumbnails of the alternate-image strip, size modifier removed. */
function thumbnailsFromDom(doc: Doc): string[] {
  const out: string[] = [];
  doc.q('#altImages li.imageThumbnail, #altImages li.item').each((_, li) => {
    const $li = doc.$(li);
    if (/videoThumbnail|360/.test($li.attr('class') ?? '')) return;
    const src = httpUrl($li.find('img').first().attr('src'));
    if (src && !src.includes('/G/')) out.push(src.replace(/\._[^/]*_(\.[a-z]+)$/i, '$1'));
  });
  return out;
}

const MAIN_IMAGE_SELECTORS = [
  '#landingImage',
  '#imgBlkFront',
  '#ebooksImgBlkFront',
  '#main-image',
  '#imgTagWrapperId img',
  '#img-canvas img',
  '#main-image-container img',
  '#ebooksImageBlock img',
];

export function extractImages(doc: Doc): { mainImage: string | null; images: string[] } {
  let landing: string | null = null;
  for (const s of MAIN_IMAGE_SELECTORS) {
    landing = imageFromImg(doc.q(s).first());
    if (landing) break;
  }
  const fromScripts = colorImagesFromScripts(doc.scripts);
  const gallery = galleryFromScripts(doc.scripts);
  const candidates = [...(landing ? [landing] : []), ...fromScripts, ...gallery];
  if (fromScripts.length === 0 && gallery.length === 0) {
    // Without the JSON, the strip's first thumbnail is the main image itself.
    const thumbs = thumbnailsFromDom(doc);
    candidates.push(...(landing ? thumbs.slice(1) : thumbs));
  }
  if (candidates.length === 0) {
    const og = httpUrl(doc.root().children('html').children('head').children('meta[property="og:image"]').attr('content'));
    if (og) candidates.push(og);
  }
  const seen = new Set<string>();
  const images: string[] = [];
  for (const u of candidates) {
    const k = imageKey(u);
    if (seen.has(k)) continue;
    seen.add(k);
    images.push(u);
  }
  return { mainImage: images[0] ?? null, images };
}
