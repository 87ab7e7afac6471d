import { Readable } from 'node:stream';
import type { Request, RequestHandler, Response } from 'express';
import { tenantContext, type TenantContext } from '../../../domain/context';
import type { Services } from '../../../domain/services';
import { trashNodes } from '../../../domain/cloud/trashNodes';
import { copyNode } from '../../../domain/cloud/webdav/copyNode';
import {
  ifHeaderHolds,
  parseIfHeader,
  submittedTokens,
  type ResourceState,
} from '../../../domain/cloud/webdav/ifHeader';
import { checkUnlocked, dropLocks, releaseLock, renewLock, takeLock } from '../../../domain/cloud/webdav/locks';
import { alreadyMapped, DAV_ALLOW, makeFolder } from '../../../domain/cloud/webdav/makeFolder';
import { moveNode } from '../../../domain/cloud/webdav/moveNode';
import {
  activeLocks,
  multistatus,
  propfindResponse,
  proppatchResponse,
  type PropfindRequest,
  type PropName,
} from '../../../domain/cloud/webdav/multistatus';
import { patchProperties, type PropertyChange } from '../../../domain/cloud/webdav/patchProperties';
import {
  DAV_PREFIX,
  hrefOf,
  isWithin,
  parseDavPath,
  parseDepth,
  parseDestination,
  parseOverwrite,
  parseRange,
  parseTimeout,
  pathKey,
  type DavPath,
} from '../../../domain/cloud/webdav/paths';
import { etagOf, isRoot, resolvePath, type Resolved } from '../../../domain/cloud/webdav/resolve';
import { writeDavFile } from '../../../domain/cloud/webdav/writeFile';
import { childOf, DAV_NS, elementsOf, is, parseXml, serializeElement } from '../../../domain/cloud/webdav/xml';
import { childrenOf, locksAround, propertiesOf, type DavLockRow, type DavNode } from '../../../domain/cloud/store/dav';
import { AppError, badRequest, forbidden, notFound } from '../../../lib/errors';
import { authenticateDav, type DavPrincipal } from './auth';
import { drain, hasBody, readBody, sendDavError, sendXml } from './io';

export { DAV_PREFIX };

/**
 * WebDAV (RFC 4918, classes 1 and 2) over the organisation's drive, at /dav/files/ (its root folder). Members sign
 * in with HTTP Basic: their e-mail and an app password of scope `webdav`. Outside the route table: its methods
 * (PROPFIND, MKCOL, LOCK ...) and XML bodies are not JSON routes, so they are described in docs/cloud.md, not in
 * /openapi.json. Every path resolves inside the caller's organisation: another organisation's files have no path.
 */
export function webdavHandler(services: Services): RequestHandler {
  return (req, res) => {
    void serve(services, req, res).catch((err: unknown) => sendDavError(req, res, err, services.logger));
  };
}

const WRITES = new Set(['PUT', 'DELETE', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK']);

interface Call {
  req: Request;
  res: Response;
  ctx: TenantContext;
  services: Services;
  path: DavPath;
  target: Resolved;
  /** Lock tokens the If header submits. */
  tokens: string[];
}

async function serve(services: Services, req: Request, res: Response): Promise<void> {
  res.set('DAV', '1, 2');
  res.set('MS-Author-Via', 'DAV');
  // Clients probe OPTIONS before they authenticate (Windows' mini-redirector among them): it reveals nothing.
  if (req.method === 'OPTIONS') {
    await drain(req);
    return void res.status(200).set({ Allow: DAV_ALLOW, 'Content-Length': '0' }).end();
  }
  const path = parseDavPath(req.originalUrl.split('?')[0]);
  const principal = await authenticateDav(services, req);
  if (WRITES.has(req.method) && !principal.canWrite)
    throw forbidden('permission_denied', 'This action needs the permission cloud.write');
  const ctx = tenantContext(services, principal.tenantId, principal.userId);
  const target = await resolvePath(ctx, path);
  const call: Call = { req, res, ctx, services, path, target, tokens: [] };
  call.tokens = await checkIfHeader(call);
  checkConditionalHeaders(call);
  const handler = METHODS[req.method];
  if (!handler) {
    await drain(req);
    throw new AppError(405, 'method_not_allowed', `WebDAV does not take ${req.method}`, undefined, {
      Allow: DAV_ALLOW,
    });
  }
  await handler(call, principal);
}

type Method = (call: Call, principal: DavPrincipal) => Promise<void>;

const METHODS: Record<string, Method> = {
  GET: (call) => get(call, true),
  HEAD: (call) => get(call, false),
  PUT: put,
  DELETE: remove,
  MKCOL: mkcol,
  PROPFIND: propfind,
  PROPPATCH: proppatch,
  COPY: (call) => copyOrMove(call, 'COPY'),
  MOVE: (call) => copyOrMove(call, 'MOVE'),
  LOCK: lock,
  UNLOCK: unlock,
};

const mustExist = (call: Call): DavNode => {
  if (!call.target.node) throw notFound('Resource');
  return call.target.node;
};

const noBody = async (call: Call) => {
  await drain(call.req);
};

// ---- Conditions: If (RFC 4918 10.4), If-Match / If-None-Match (RFC 9110 13.1) ----

async function stateOf(call: Call, tag: string | undefined): Promise<ResourceState> {
  let path = call.path;
  let node = call.target.node;
  if (tag !== undefined) {
    try {
      path = parseDavPath(new URL(tag, `http://${call.req.headers.host ?? 'localhost'}`).pathname);
    } catch {
      return { etag: null, lockTokens: [] };
    }
    node = (await resolvePath(call.ctx, path)).node;
  }
  const locks = await locksAround(call.ctx.em, call.ctx.tenantId, pathKey(path));
  return { etag: node ? etagOf(node) : null, lockTokens: locks.map((l) => l.token) };
}

/** 412 `precondition_failed` when the If header holds for no list; returns the lock tokens it submits. */
async function checkIfHeader(call: Call): Promise<string[]> {
  const header = call.req.headers.if;
  if (header === undefined) return [];
  const lists = parseIfHeader(String(header));
  const states = new Map<string | undefined, ResourceState>();
  for (const list of lists)
    if (!states.has(list.resource)) states.set(list.resource, await stateOf(call, list.resource));
  if (!ifHeaderHolds(lists, (resource) => states.get(resource)!))
    throw new AppError(412, 'precondition_failed', 'The If header does not hold for the resource');
  return submittedTokens(lists);
}

function checkConditionalHeaders(call: Call): void {
  const { req } = call;
  const etag = call.target.node ? etagOf(call.target.node) : null;
  const matches = (header: string) =>
    header.trim() === '*' ? etag !== null : header.split(',').some((t) => etag !== null && t.trim() === etag);
  const ifMatch = req.headers['if-match'];
  if (ifMatch !== undefined && !matches(ifMatch))
    throw new AppError(412, 'precondition_failed', 'If-Match does not match the resource');
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined && matches(ifNoneMatch)) {
    if (req.method === 'GET' || req.method === 'HEAD') throw new AppError(304, 'not_modified', 'Not modified');
    throw new AppError(412, 'precondition_failed', 'If-None-Match matches the resource');
  }
}

/** The lock checks of a change: each path (with its subtree) and the folders whose members change. */
const unlocked = (call: Call, targets: { path: DavPath; subtree?: boolean }[]) =>
  checkUnlocked(
    call.ctx,
    targets.map((t) => ({ pathKey: pathKey(t.path), subtree: t.subtree ?? false })),
    call.tokens,
  );
const parentOf = (path: DavPath) => path.slice(0, -1);

// ---- GET / HEAD ----

async function get(call: Call, withBody: boolean): Promise<void> {
  await noBody(call);
  const node = mustExist(call);
  const { res } = call;
  res.set({ ETag: etagOf(node), 'Last-Modified': node.updatedAt.toUTCString() });
  if (node.kind === 'folder') {
    const names = (await childrenOf(call.ctx.em, call.ctx.tenantId, isRoot(node) ? null : node.id)).map(
      (c) => `${c.name}${c.kind === 'folder' ? '/' : ''}`,
    );
    res.status(200).type('text/plain; charset=utf-8');
    return void (withBody ? res.send(names.join('\n')) : res.end());
  }
  res.set({
    'Accept-Ranges': 'bytes',
    'Content-Type': node.contentType ?? 'application/octet-stream',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
  });
  const range = parseRange(call.req.headers.range, node.size);
  if (range === 'unsatisfiable') {
    res.set('Content-Range', `bytes */${node.size}`);
    throw new AppError(416, 'range_not_satisfiable', `The file has ${node.size} bytes`);
  }
  const { storage } = call.services;
  if (range) {
    res.status(206).set({
      'Content-Range': `bytes ${range.start}-${range.end}/${node.size}`,
      'Content-Length': String(range.end - range.start + 1),
    });
  } else res.status(200).set('Content-Length', String(node.size));
  if (!withBody || node.size === 0) return void res.end();
  const stream = range
    ? await storage.getRange(node.objectKey!, range.start, range.end)
    : await storage.get(node.objectKey!);
  await new Promise<void>((resolve, reject) => {
    stream.on('error', reject);
    res.on('close', resolve);
    stream.pipe(res);
  });
}

// ---- PUT ----

async function put(call: Call): Promise<void> {
  const { req, res, target, path } = call;
  if (!path.length || target.node?.kind === 'folder')
    throw new AppError(405, 'is_a_folder', 'A folder cannot be written with PUT', undefined, { Allow: DAV_ALLOW });
  if (!target.parent) throw new AppError(409, 'parent_missing', 'The folder of this path does not exist');
  if (req.headers['content-range'])
    throw badRequest('content_range_not_supported', 'PUT with Content-Range is not supported');
  const declared = req.headers['content-length'] ?? req.headers['x-expected-entity-length'];
  if (declared === undefined || !/^\d+$/.test(String(declared)))
    throw new AppError(
      411,
      'length_required',
      'PUT needs a Content-Length (the bytes are reserved in the quota first)',
    );
  await unlocked(call, target.node ? [{ path }] : [{ path }, { path: parentOf(path) }]);
  await writeDavFile(
    call.ctx,
    {
      parent: target.parent,
      name: path[path.length - 1],
      existing: target.node,
      size: Number(declared),
      contentType: req.headers['content-type'],
    },
    req,
  );
  const written = (await resolvePath(call.ctx, path)).node;
  if (written) res.set('ETag', etagOf(written));
  res.status(target.node ? 204 : 201).end();
}

// ---- DELETE, MKCOL ----

async function remove(call: Call): Promise<void> {
  await noBody(call);
  const node = mustExist(call);
  if (isRoot(node)) throw forbidden('root_not_deletable', 'The root folder cannot be deleted');
  await unlocked(call, [{ path: call.path, subtree: true }, { path: parentOf(call.path) }]);
  await trashNodes(call.ctx, node.kind === 'folder' ? { folderIds: [node.id] } : { fileIds: [node.id] });
  await dropLocks(call.ctx, pathKey(call.path));
  call.res.status(204).end();
}

async function mkcol(call: Call): Promise<void> {
  const { req, res, target, path } = call;
  if (hasBody(req)) {
    await drain(req);
    throw new AppError(415, 'unsupported_media_type', 'MKCOL takes no body');
  }
  if (target.node) throw alreadyMapped();
  if (!target.parent) throw new AppError(409, 'parent_missing', 'The folder of this path does not exist');
  await unlocked(call, [{ path }, { path: parentOf(path) }]);
  await makeFolder(call.ctx, target.parent, path[path.length - 1]);
  res.status(201).end();
}

// ---- PROPFIND, PROPPATCH ----

async function xmlBody(call: Call) {
  const text = await readBody(call.req, call.services.config.DAV_XML_MAX_BYTES);
  return text.trim() ? parseXml(text) : null;
}

function propfindRequest(body: ReturnType<typeof parseXml> | null): PropfindRequest {
  if (!body) return { kind: 'allprop' };
  if (!is(body, DAV_NS, 'propfind')) throw badRequest('xml_invalid', 'PROPFIND takes a DAV:propfind element');
  const [first] = elementsOf(body);
  if (!first) throw badRequest('xml_invalid', 'DAV:propfind needs prop, allprop or propname');
  if (is(first, DAV_NS, 'allprop')) return { kind: 'allprop' };
  if (is(first, DAV_NS, 'propname')) return { kind: 'propname' };
  if (is(first, DAV_NS, 'prop'))
    return { kind: 'prop', props: elementsOf(first).map((e) => ({ ns: e.ns, name: e.name })) };
  throw badRequest('xml_invalid', 'DAV:propfind needs prop, allprop or propname');
}

async function propfind(call: Call): Promise<void> {
  const request = propfindRequest(await xmlBody(call));
  const node = mustExist(call);
  const depth = parseDepth(call.req.headers.depth as string | undefined, 'infinity');
  if (depth === 'infinity' && node.kind === 'folder')
    throw new AppError(403, 'propfind_infinite', 'PROPFIND with Depth infinity is not served; use Depth 1');
  const members: { path: DavPath; node: DavNode }[] = [{ path: call.path, node }];
  if (depth === '1' && node.kind === 'folder')
    for (const child of await childrenOf(call.ctx.em, call.ctx.tenantId, isRoot(node) ? null : node.id))
      members.push({ path: [...call.path, child.name], node: child });
  const { em, tenantId } = call.ctx;
  const dead = await propertiesOf(
    em,
    tenantId,
    members.filter((m) => !isRoot(m.node)).map((m) => m.node.id),
  );
  const locks = await locksAround(em, tenantId, pathKey(call.path), true);
  const now = new Date();
  const responses = members.map((m) => {
    const key = pathKey(m.path);
    return propfindResponse(
      request,
      {
        path: m.path,
        node: m.node,
        dead: dead
          .filter((d) => d.nodeId === m.node.id)
          .map((d) => ({ ns: d.namespace, name: d.name, value: d.value })),
        locks: locks.filter((l) => covers(l, key)),
        lockRoot,
      },
      now,
    );
  });
  sendXml(call.res, 207, multistatus(responses.join('')));
}

/** Whether a lock covers a path key (pure: the lock's own path, or below a depth-infinity lock). */
export const covers = (lock: DavLockRow, key: string) =>
  lock.pathKey === key || (lock.depth === 'infinity' && (lock.pathKey === '/' || key.startsWith(`${lock.pathKey}/`)));

const lockRoot = (lock: DavLockRow) => hrefOf(lock.pathKey === '/' ? [] : lock.pathKey.slice(1).split('/'), false);

async function proppatch(call: Call): Promise<void> {
  const body = await xmlBody(call);
  const node = mustExist(call);
  if (!body || !is(body, DAV_NS, 'propertyupdate'))
    throw badRequest('xml_invalid', 'PROPPATCH takes a DAV:propertyupdate element');
  const changes: PropertyChange[] = [];
  for (const op of elementsOf(body)) {
    const set = is(op, DAV_NS, 'set');
    if (!set && !is(op, DAV_NS, 'remove')) throw badRequest('xml_invalid', 'DAV:propertyupdate holds set and remove');
    const prop = childOf(op, DAV_NS, 'prop');
    if (!prop) throw badRequest('xml_invalid', 'set and remove hold a DAV:prop');
    for (const el of elementsOf(prop))
      changes.push(set ? { set: el } : { remove: { ns: el.ns, name: el.name } satisfies PropName });
  }
  if (!changes.length) throw badRequest('xml_invalid', 'PROPPATCH changes no property');
  await unlocked(call, [{ path: call.path }]);
  const results = await patchProperties(call.ctx, node, changes);
  sendXml(call.res, 207, proppatchResponse(call.path, node.kind === 'folder', results));
}

// ---- COPY, MOVE ----

async function copyOrMove(call: Call, method: 'COPY' | 'MOVE'): Promise<void> {
  await noBody(call);
  const { req, res, ctx } = call;
  const source = mustExist(call);
  if (isRoot(source)) throw forbidden('root_not_movable', 'The root folder cannot be copied or moved');
  const destination = parseDestination(req.get('destination'), req.headers.host);
  const overwrite = parseOverwrite(req.headers.overwrite as string | undefined);
  const depth = parseDepth(req.headers.depth as string | undefined, 'infinity');
  if (depth === '1' || (method === 'MOVE' && depth !== 'infinity'))
    throw badRequest('depth_invalid', `${method} takes Depth ${method === 'MOVE' ? 'infinity' : '0 or infinity'}`);
  if (!destination.length) throw forbidden('destination_root', 'The root folder cannot be replaced');
  const sameNode = pathKey(destination) === pathKey(call.path);
  if (sameNode && (method === 'COPY' || destination.join('/') === call.path.join('/')))
    throw forbidden('destination_same', 'The source and the destination are the same resource');
  if (!sameNode && isWithin(destination, call.path))
    throw forbidden('destination_inside', 'A folder cannot be copied or moved into itself');
  const dest = await resolvePath(ctx, destination);
  if (!dest.parent) throw new AppError(409, 'parent_missing', 'The folder of the destination does not exist');
  const replaced = !sameNode && dest.node !== null;
  if (replaced && !overwrite)
    throw new AppError(412, 'destination_exists', 'The destination exists and Overwrite is F');
  await unlocked(call, [
    ...(method === 'MOVE' ? [{ path: call.path, subtree: true }, { path: parentOf(call.path) }] : []),
    { path: destination, subtree: true },
    { path: parentOf(destination) },
  ]);
  if (replaced) {
    const old = dest.node!;
    await trashNodes(ctx, old.kind === 'folder' ? { folderIds: [old.id] } : { fileIds: [old.id] });
    await dropLocks(ctx, pathKey(destination));
  }
  const name = destination[destination.length - 1];
  if (method === 'COPY') await copyNode(ctx, source, dest.parent, name, depth === 'infinity');
  else {
    await moveNode(ctx, source, dest.parent, name);
    await dropLocks(ctx, pathKey(call.path));
  }
  res.status(replaced ? 204 : 201).end();
}

// ---- LOCK, UNLOCK ----

async function lock(call: Call): Promise<void> {
  const { req, res, ctx, path, target } = call;
  const body = await xmlBody(call);
  const max = call.services.config.DAV_LOCK_MAX_SECONDS;
  const timeout = parseTimeout(req.headers.timeout as string | undefined, max, max);
  const key = pathKey(path);
  const answer = (status: number, locks: DavLockRow[], headers: Record<string, string> = {}) =>
    sendXml(
      res,
      status,
      `<d:prop xmlns:d="DAV:"><d:lockdiscovery>${activeLocks(locks, lockRoot, new Date())}</d:lockdiscovery></d:prop>`,
      headers,
    );
  if (!body) {
    // A refresh: the lock named in the If header, of the caller, covering the resource.
    if (!call.tokens.length) throw badRequest('lock_token_missing', 'A LOCK refresh names its lock in an If header');
    return answer(200, [await renewLock(ctx, key, call.tokens, timeout)]);
  }
  if (!is(body, DAV_NS, 'lockinfo')) throw badRequest('xml_invalid', 'LOCK takes a DAV:lockinfo element');
  const scopeEl = childOf(body, DAV_NS, 'lockscope');
  const scope =
    scopeEl && childOf(scopeEl, DAV_NS, 'shared')
      ? 'shared'
      : scopeEl && childOf(scopeEl, DAV_NS, 'exclusive')
        ? 'exclusive'
        : null;
  const typeEl = childOf(body, DAV_NS, 'locktype');
  if (!scope || !typeEl || !childOf(typeEl, DAV_NS, 'write'))
    throw badRequest('xml_invalid', 'DAV:lockinfo needs a lockscope (exclusive or shared) and locktype write');
  const owner = childOf(body, DAV_NS, 'owner');
  const depth = parseDepth(req.headers.depth as string | undefined, 'infinity');
  if (depth === '1') throw badRequest('depth_invalid', 'LOCK takes Depth 0 or infinity');
  if (!target.node && !target.parent)
    throw new AppError(409, 'parent_missing', 'The folder of this path does not exist');
  if (!target.node) await unlocked(call, [{ path: parentOf(path) }]);
  const taken = await takeLock(ctx, {
    pathKey: key,
    depth,
    scope,
    ownerXml: owner ? serializeElement(owner) : null,
    timeoutSeconds: timeout,
  });
  if (!target.node) {
    // A lock on an unmapped URL creates an empty file there (RFC 4918 7.3).
    try {
      await writeDavFile(
        ctx,
        { parent: target.parent!, name: path[path.length - 1], existing: null, size: 0, contentType: undefined },
        emptyBody(),
      );
    } catch (err) {
      await releaseLock(ctx, key, taken.token).catch(() => undefined);
      throw err;
    }
  }
  answer(target.node ? 200 : 201, [taken], { 'Lock-Token': `<${taken.token}>` });
}

async function unlock(call: Call): Promise<void> {
  await noBody(call);
  mustExist(call);
  const token = /^\s*<([^>]+)>\s*$/.exec(String(call.req.headers['lock-token'] ?? ''))?.[1];
  if (!token) throw badRequest('lock_token_missing', 'UNLOCK needs a Lock-Token header: <token>');
  await releaseLock(call.ctx, pathKey(call.path), token);
  call.res.status(204).end();
}

const emptyBody = () => Readable.from([]);
