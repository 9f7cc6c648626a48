// POST /api/org/invites/accept (spec 4.2): the body a signed-in user sends and the answer.

export interface AcceptInviteBody {
  token: string;
}

export interface AcceptedInvite {
  message: string;
  /** The organization whose membership the caller now holds. */
  organization: string;
  /** Present when the caller was a member already; the invitation is used up all the same. */
  alreadyMember?: true;
}
