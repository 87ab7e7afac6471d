import type { AddressInfo } from 'node:net';

/**
 * A DNS server on a loopback UDP port (the `dns2` package) answering TXT questions from `records` (name -> values);
 * any other name is answered with no record. Point SSO_DNS_SERVERS at `address`.
 */
export interface TestDns {
  address: string;
  records: Map<string, string[]>;
  close(): Promise<void>;
}

export async function startDns(): Promise<TestDns> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const dns2 = require('dns2') as typeof import('dns2');
  const { Packet } = dns2;
  const records = new Map<string, string[]>();
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      for (const question of request.questions) {
        if (question.type !== Packet.TYPE.TXT) continue;
        for (const data of records.get(question.name.toLowerCase()) ?? [])
          response.answers.push({
            name: question.name,
            type: Packet.TYPE.TXT,
            class: Packet.CLASS.IN,
            ttl: 1,
            data,
          } as unknown as (typeof response.answers)[number]);
      }
      send(response);
    },
  });
  await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const { port } = server.addresses().udp as AddressInfo;
  return { address: `127.0.0.1:${port}`, records, close: () => server.close() };
}
