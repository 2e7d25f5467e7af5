package dev.cumulus.internal.service;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A standing cluster's server opened a profiled client's window ({@code cumulus run --attach NAME --profile}): the
 * client's share of the server's events begins at this event, on the recording's own clock.
 */
@Name(ClientProfileWindowEvent.NAME)
@Label("Client Profile Window")
@Category({"Cumulus", "Standing cluster"})
@Description("A server began recording a client's profile")
@StackTrace(false)
public final class ClientProfileWindowEvent extends Event {
    public static final String NAME = "dev.cumulus.ClientProfileWindow";

    @Label("Client")
    @Description("The client's transport id")
    public int client;
}
