import { createSession, destroySession } from './sessions';
import { fetchPage } from './fetch-page';
import { addressChangeBody, addressUpdated, modalToken, selectionsToken, setUpLocation, type SetupSend } from './location-setup';
import { HOME_TOKEN, SELECTIONS_TOKEN, startLocationServer } from './test-support/location-server';

const b = (s: string) => Buffer.from(s, 'utf8');

describe('location setup tokens', () => {
  it("reads the home page's token from the modal's data-a-modal JSON, entities unescaped, attributes in any order", () => {
    const json = '{&quot;ajaxHeaders&quot;:{&quot;anti-csrftoken-a2z&quot;:&quot;a&amp;b=&quot;}}';
    expect(modalToken(b(`<span id="nav-global-location-data-modal-action" data-a-modal="${json}">`))).toBe('a&b=');
    expect(modalToken(b(`<span data-a-modal="${json}" class="x" id="nav-global-location-data-modal-action">`))).toBe('a&b=');
    expect(
      modalToken(b(`<span id='nav-global-location-data-modal-action' data-a-modal='{"ajaxHeaders":{"anti-csrftoken-a2z":"t"}}'>`)),
    ).toBe('t');
  });

  it('finds no token where the modal, its JSON or its header is missing (never one of another element)', () => {
    expect(modalToken(b('<html><body>no modal</body></html>'))).toBeNull();
    expect(
      modalToken(
        b(
          '<span id="nav-global-location-data-modal-action">x</span><i data-a-modal="{&quot;ajaxHeaders&quot;:{&quot;anti-csrftoken-a2z&quot;:&quot;other&quot;}}">',
        ),
      ),
    ).toBeNull();
    expect(modalToken(b('<span id="nav-global-location-data-modal-action" data-a-modal="{broken">'))).toBeNull();
    expect(modalToken(b('<span id="nav-global-location-data-modal-action" data-a-modal="{&quot;ajaxHeaders&quot;:{}}">'))).toBeNull();
  });

  it("reads the selections answer's CSRF_TOKEN", () => {
    expect(selectionsToken(b('P.declare("x", { CSRF_TOKEN : "abc123", y: 1 })'))).toBe('abc123');
    expect(selectionsToken(b('no token'))).toBeNull();
  });

  it('reads the address change answer: updated, refused (either flag 0), or unreadable', () => {
    expect(addressUpdated(b('{"isValidAddress":1,"isAddressUpdated":1}'))).toBe(true);
    expect(addressUpdated(b('{"isValidAddress":0,"isAddressUpdated":0}'))).toBe(false);
    expect(addressUpdated(b('{"isValidAddress":1,"isAddressUpdated":0}'))).toBe(false);
    expect(addressUpdated(b('{"isValidAddress":0,"isAddressUpdated":1}'))).toBe(false);
    expect(addressUpdated(b('<html>robot</html>'))).toBeNull();
    expect(addressUpdated(b('{"other":1}'))).toBeNull();
  });

  it("sends the deliver-to control's body", () => {
    expect(JSON.parse(addressChangeBody('10001'))).toEqual({
      locationType: 'LOCATION_INPUT',
      zipCode: '10001',
      deviceType: 'web',
      storeContext: 'generic',
      pageType: 'Gateway',
      actionSource: 'glow',
    });
  });
});

describe('setUpLocation against a marketplace', () => {
  let server: Awaited<ReturnType<typeof startLocationServer>>;
  const session = createSession(0, null);
  beforeAll(async () => {
    server = await startLocationServer();
  });
  afterAll(async () => {
    destroySession(session);
    await server.close();
  });
  beforeEach(() => {
    server.state.log.length = 0;
    server.state.refused.clear();
  });
  const send: SetupSend = (url, xhr) =>
    fetchPage(url, session, { origin: server.url, timeoutMs: 2_000, acceptLanguage: 'en-US', ...(xhr ? { xhr } : {}) });

  it('makes the three requests in order, each with the token of the answer before, in one cookie jar', async () => {
    expect(await setUpLocation(server.url, '10001', send)).toEqual({ ok: true });
    expect(server.state.log.map((r) => [r.method, r.path.split('?')[0], r.token])).toEqual([
      ['GET', '/', undefined],
      ['GET', '/portal-migration/hz/glow/get-rendered-address-selections', HOME_TOKEN],
      ['POST', '/portal-migration/hz/glow/address-change', SELECTIONS_TOKEN],
    ]);
    expect(server.state.log[2]!.cookie).toMatch(/session-id=\d+/);
    expect(JSON.parse(server.state.log[2]!.body)).toMatchObject({ zipCode: '10001', locationType: 'LOCATION_INPUT' });
  });

  it('an answer that the address was not updated is a refusal', async () => {
    server.state.refused.add('99999');
    expect(await setUpLocation(server.url, '99999', send)).toMatchObject({ ok: false, refused: true });
  });

  it('a home page without the token is a retryable upstream failure, and nothing more is requested', async () => {
    const noToken: SetupSend = async (url) => ({ kind: 'response', status: 200, body: b('<html>new layout</html>'), url });
    expect(await setUpLocation(server.url, '10001', noToken)).toMatchObject({
      ok: false,
      refused: false,
      code: 'UPSTREAM_ERROR',
      retryable: true,
    });
  });

  it('a robot check during the setup is BLOCKED', async () => {
    const robot: SetupSend = async (url) => ({
      kind: 'response',
      status: 200,
      body: b('<html><form action="/errors/validateCaptcha"><p>Type the characters you see in this image</p></form></html>'),
      url,
    });
    expect(await setUpLocation(server.url, '10001', robot)).toMatchObject({ ok: false, refused: false, code: 'BLOCKED' });
  });
});
