/** A handler's answer sent as is (bare JSON, a file stream) instead of inside R. */
export class RawReply {
  constructor(public body: unknown) {}
}
