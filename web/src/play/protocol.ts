// play/protocol.ts -- the messages the three game pages read, by name.
// Every type is generated from docs/api.schema.json (web/gen-types.mjs);
// this file only picks the members the game pages use. Invariant: nothing
// here adds a field or guesses between two shapes of one message.

export type {
  MoveMessage, EndMessage, GameMessage, ErrorMessage, DrawOfferMessage, RematchOfferMessage,
  ReadyMessage, SetupOkMessage, Game as LiveGame,
} from '../gen/api';
import type { DrawOfferMessage, RematchOfferMessage } from '../gen/api';

export type OfferMessage = DrawOfferMessage | RematchOfferMessage;
